$TK stats --to json $TK_TESTDATA/perf/pdc/with-callchain.perf.data
