$TK report --linreg THREAD/READY,THREAD/RUNNING $TK_TESTDATA/cpel/basic-le.cpel
