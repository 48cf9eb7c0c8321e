$TK convert $TK_TESTDATA/perf/pdc/with-callchain.perf.data --limit 3 -o /tmp/tk-golden-never-written.pb.gz
