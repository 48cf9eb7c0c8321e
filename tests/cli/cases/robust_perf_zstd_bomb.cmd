python3 tests/robustness/hostile.py stdin-perf_pipe_zstd_bomb stats
