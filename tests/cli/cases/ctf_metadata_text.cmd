$TK print --format metadata $TK_TESTDATA/ctf/babeltrace/succeed/smalltrace
