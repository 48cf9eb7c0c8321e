python3 tests/robustness/hostile.py perf_data_size print
