$TK report $TK_TESTDATA/cpel/basic.cpel
