python3 tests/robustness/hostile.py cpel_event_count convert --to ctf -o out
