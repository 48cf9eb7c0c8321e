$TK report --sort comm $TK_TESTDATA/perf/pdc/with-callchain.perf.data
