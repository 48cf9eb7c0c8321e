python3 tests/robustness/hostile.py ctf_metadata_array stats
