$TK stats $TK_TESTDATA/dcpi/simple.prof
