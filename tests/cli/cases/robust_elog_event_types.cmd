python3 tests/robustness/hostile.py elog_event_types print
