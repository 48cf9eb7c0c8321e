python3 tests/robustness/hostile.py ctf_named_types print
