$TK print --format json $TK_TESTDATA/dcpi/simple.prof
