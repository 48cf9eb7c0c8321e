$TK print --format cpeldump $TK_TESTDATA/cpel/bad-string-offset.cpel
