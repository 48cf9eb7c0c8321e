$TK info $TK_TESTDATA/dcpi/optional-unknown.prof
