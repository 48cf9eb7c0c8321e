$TK print --format cpeldump $TK_TESTDATA/dcpi/simple.prof
