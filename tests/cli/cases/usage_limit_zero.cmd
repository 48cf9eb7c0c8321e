$TK print --limit 0 $TK_TESTDATA/perf/pdc/with-callchain.perf.data
