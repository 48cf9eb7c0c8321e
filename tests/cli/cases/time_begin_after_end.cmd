$TK print --begin 105032 --end 105031 $TK_TESTDATA/perf/pdc/with-callchain.perf.data
