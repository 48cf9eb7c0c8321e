python3 tests/robustness/hostile.py ctf2_deep_json print -f babeltrace
