$TK print --end 10min $TK_TESTDATA/perf/pdc/with-callchain.perf.data
