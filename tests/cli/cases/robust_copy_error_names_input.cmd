$TK convert $TK_TESTDATA/perf/quipper/perf.data.piped.corrupted.zero_size_sample-3.2 --to perf -o /tmp/tk-golden-never-written.data
