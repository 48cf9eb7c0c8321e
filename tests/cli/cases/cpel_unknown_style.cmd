$TK print --format babeltrace $TK_TESTDATA/cpel/basic.cpel
