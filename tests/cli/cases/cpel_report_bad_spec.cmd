$TK report --latency ONLY $TK_TESTDATA/cpel/basic.cpel
