$TK print --format perf $TK_TESTDATA/perf/pdc/with-callchain.perf.data
