$TK print --format json $TK_TESTDATA/cpel/multi-table.cpel
