$TK print $TK_TESTDATA/cpel/basic.cpel
