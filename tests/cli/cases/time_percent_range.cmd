$TK print --time 0%-1% $TK_TESTDATA/perf/pdc/with-callchain.perf.data | grep -c cpu-clock
