$TK print $TK_TESTDATA/perf/pdc/with-callchain.perf.data --limit 2
