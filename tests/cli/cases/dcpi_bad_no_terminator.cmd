$TK print $TK_TESTDATA/dcpi/bad-no-terminator.prof
