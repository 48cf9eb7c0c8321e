$TK print --time 105138.7, $TK_TESTDATA/perf/pdc/with-callchain.perf.data | grep -c cpu-clock
