$TK print --format json --pid 3208 --event "heartbeat:*" --limit 3 $TK_TESTDATA/ctf/babeltrace/succeed/wk-heartbeat-u
