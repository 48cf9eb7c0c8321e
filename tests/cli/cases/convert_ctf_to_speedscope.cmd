$TK convert $TK_TESTDATA/ctf/babeltrace/succeed/wk-heartbeat-u -o /tmp/tk-golden-never-written.speedscope.json
