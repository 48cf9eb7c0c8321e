$TK print --time 1,2 --begin 1 $TK_TESTDATA/perf/pdc/with-callchain.perf.data
