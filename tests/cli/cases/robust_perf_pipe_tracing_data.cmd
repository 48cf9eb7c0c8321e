python3 tests/robustness/hostile.py stdin-perf_pipe_tracing_data stats
