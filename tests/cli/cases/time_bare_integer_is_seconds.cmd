$TK print --begin 105031 --end 105032 $TK_TESTDATA/perf/pdc/with-callchain.perf.data | grep -c cpu-clock
