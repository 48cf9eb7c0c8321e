$TK info $TK_TESTDATA/cpel/multi-table.cpel
