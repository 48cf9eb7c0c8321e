python3 tests/robustness/hostile.py perf_pipe_auxtrace print -a
