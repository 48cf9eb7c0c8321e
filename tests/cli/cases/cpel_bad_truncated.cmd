$TK print --format cpeldump $TK_TESTDATA/cpel/bad-truncated.cpel
