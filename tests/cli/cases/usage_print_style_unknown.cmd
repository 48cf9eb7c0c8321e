$TK print --format bogus $TK_TESTDATA/perf/pdc/with-callchain.perf.data
