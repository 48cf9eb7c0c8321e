$TK print --format babeltrace $TK_TESTDATA/ctf/babeltrace/fail/integer-range
