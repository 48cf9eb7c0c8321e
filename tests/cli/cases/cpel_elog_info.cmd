$TK info $TK_TESTDATA/cpel/vpp-small.elog
