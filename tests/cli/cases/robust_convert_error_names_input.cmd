$TK convert $TK_TESTDATA/cpel/bad-string-offset.cpel --to json -o /tmp/tk-golden-never-written.jsonl
