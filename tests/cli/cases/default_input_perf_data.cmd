cd "$(mktemp -d)" && cp $TK_TESTDATA/perf/pdc/with-callchain.perf.data perf.data && $TK stats | head -3; mkdir d && mv perf.data d/ && $TK info d | head -2
