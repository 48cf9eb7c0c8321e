$TK print --end 99999999999999999999 $TK_TESTDATA/perf/pdc/with-callchain.perf.data
