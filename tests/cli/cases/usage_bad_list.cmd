$TK print --cpu 3-1 $TK_TESTDATA/perf/pdc/with-callchain.perf.data
