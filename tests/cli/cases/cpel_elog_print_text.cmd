$TK print $TK_TESTDATA/cpel/vpp-small.elog
