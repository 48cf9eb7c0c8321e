$TK stats $TK_TESTDATA/perf/pdc/with-callchain.perf.data | tail -1; $TK stats $TK_TESTDATA/perf/quipper/perf.data.forkexit-3.8 | tail -1
