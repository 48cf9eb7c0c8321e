$TK report --sort comm,bogus $TK_TESTDATA/perf/pdc/with-callchain.perf.data
