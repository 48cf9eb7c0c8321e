$TK print --format babeltrace --clock-gmt --tid 3215 --cpu 4 $TK_TESTDATA/ctf/babeltrace/succeed/wk-heartbeat-u
