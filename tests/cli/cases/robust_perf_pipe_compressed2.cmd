python3 tests/robustness/hostile.py stdin-perf_pipe_compressed2 print -f perf-script
