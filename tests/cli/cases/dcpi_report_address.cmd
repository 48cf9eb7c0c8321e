$TK report --sort address $TK_TESTDATA/dcpi/simple.prof
