$TK print -e 'sched:*,cpu-c*' --limit 1 $TK_TESTDATA/perf/pdc/with-callchain.perf.data
