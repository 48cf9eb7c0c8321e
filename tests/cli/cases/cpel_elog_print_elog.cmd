$TK print --format elog $TK_TESTDATA/cpel/vpp-small.elog
