$TK print $TK_TESTDATA/dcpi/bad-truncated.prof
