$TK print $TK_TESTDATA/cpel/bad-section-length.cpel
