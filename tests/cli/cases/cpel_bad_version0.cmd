$TK print --format cpeldump $TK_TESTDATA/cpel/bad-version0.cpel
