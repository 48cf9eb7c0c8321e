$TK info tests/fuzz/corpus/log_recover/stop_coarse
