$TK convert $TK_TESTDATA/perf/pdc/with-callchain.perf.data --pid 1 -o /tmp/tk-golden-never-written.pb.gz
