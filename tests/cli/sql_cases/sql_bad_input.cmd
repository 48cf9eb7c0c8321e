$TK sql $TK_TESTDATA/cpel/bad-truncated.cpel 'SELECT count(*) FROM event'
