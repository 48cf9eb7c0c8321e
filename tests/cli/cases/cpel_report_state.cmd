$TK report --state THREAD/READY $TK_TESTDATA/cpel/basic.cpel
