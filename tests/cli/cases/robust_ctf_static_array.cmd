python3 tests/robustness/hostile.py ctf_static_array convert --to perf -o out.data
