python3 tests/robustness/hostile.py cpel_section_length print -f cpeldump
