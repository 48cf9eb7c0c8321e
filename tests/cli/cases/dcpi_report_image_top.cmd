$TK report --sort image --top 1 $TK_TESTDATA/dcpi/version-006.prof
