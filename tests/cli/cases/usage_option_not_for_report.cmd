$TK report -o x $TK_TESTDATA/perf/pdc/with-callchain.perf.data
