$TK report --latency 0,0 $TK_TESTDATA/cpel/vpp-new.elog
