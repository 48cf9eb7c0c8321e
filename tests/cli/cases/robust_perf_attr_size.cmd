python3 tests/robustness/hostile.py perf_attr_size stats
