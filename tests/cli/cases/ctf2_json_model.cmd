$TK print --format json --limit 2 $TK_TESTDATA/ctf2/babeltrace-2.1/succeed/debug-info
