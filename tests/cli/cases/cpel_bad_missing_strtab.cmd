$TK info $TK_TESTDATA/cpel/bad-missing-strtab.cpel
