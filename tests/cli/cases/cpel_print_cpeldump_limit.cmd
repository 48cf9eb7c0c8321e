$TK print --format cpeldump --limit 3 $TK_TESTDATA/cpel/vpp-new.cpel
