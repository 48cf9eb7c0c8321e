$TK print --format metadata $TK_TESTDATA/ctf2/smalltrace
