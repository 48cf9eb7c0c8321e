python3 tests/robustness/hostile.py cpel_nsections info
