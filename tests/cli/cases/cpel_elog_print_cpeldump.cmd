$TK print --format cpeldump $TK_TESTDATA/cpel/vpp-small.elog
