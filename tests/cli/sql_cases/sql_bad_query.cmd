$TK sql $TK_TESTDATA/cpel/vpp-small.cpel 'SELECT nosuch FROM event'
