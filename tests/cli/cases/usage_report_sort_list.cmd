$TK report --sort symbol,image $TK_TESTDATA/perf/pdc/with-callchain.perf.data
