$TK info $TK_TESTDATA/ctf/babeltrace/succeed/wk-heartbeat-u
