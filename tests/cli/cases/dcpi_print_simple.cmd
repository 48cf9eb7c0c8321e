$TK print $TK_TESTDATA/dcpi/simple.prof
