$TK print --format json $TK_TESTDATA/ctf/babeltrace/succeed/meta-variant-reserved-keywords
