$TK print --time 10%/2 $TK_TESTDATA/perf/pdc/with-callchain.perf.data | grep cpu-clock | sed -n '1p;$p'
