$TK print --format cpeldump $TK_TESTDATA/cpel/basic-le.cpel
