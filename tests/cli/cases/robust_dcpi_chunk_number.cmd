python3 tests/robustness/hostile.py dcpi_chunk_number report
