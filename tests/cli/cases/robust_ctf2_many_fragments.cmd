python3 tests/robustness/hostile.py ctf2_many_fragments print -f babeltrace
