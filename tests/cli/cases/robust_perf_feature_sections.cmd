python3 tests/robustness/hostile.py perf_feature_sections info | grep -v '^# captured on : '
