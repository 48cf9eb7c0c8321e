python3 tests/robustness/hostile.py ctf_many_streams print -n 3
