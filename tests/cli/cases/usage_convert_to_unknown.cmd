$TK convert $TK_TESTDATA/perf/pdc/with-callchain.perf.data -o out.x --to bogus
