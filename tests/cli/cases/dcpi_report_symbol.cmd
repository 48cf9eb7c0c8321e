$TK report $TK_TESTDATA/dcpi/optional-unknown.prof
