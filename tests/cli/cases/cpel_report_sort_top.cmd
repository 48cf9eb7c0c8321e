$TK report --state 0 --sort total --top 1 $TK_TESTDATA/cpel/vpp-new.cpel
