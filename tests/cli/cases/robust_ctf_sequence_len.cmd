python3 tests/robustness/hostile.py ctf_sequence_len print -f babeltrace
