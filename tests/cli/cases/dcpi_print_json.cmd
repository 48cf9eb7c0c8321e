$TK print --format json $TK_TESTDATA/dcpi/version-006.prof
