$TK print --time 10%/1,10%/2 $TK_TESTDATA/perf/pdc/with-callchain.perf.data
