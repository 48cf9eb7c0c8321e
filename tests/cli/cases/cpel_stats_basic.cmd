$TK stats $TK_TESTDATA/cpel/basic.cpel
