$TK print --begin -1 $TK_TESTDATA/perf/pdc/with-callchain.perf.data
