$TK stats $TK_TESTDATA/ctf/babeltrace/packet-seq-num/2-streams-lost-in-2
