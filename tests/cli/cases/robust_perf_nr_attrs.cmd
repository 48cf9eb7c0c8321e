python3 tests/robustness/hostile.py perf_nr_attrs info
