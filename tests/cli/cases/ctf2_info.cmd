$TK info $TK_TESTDATA/ctf2/babeltrace-2.1/succeed/wk-heartbeat-u
