python3 tests/robustness/hostile.py ctf2_huge_lengths print -f babeltrace
