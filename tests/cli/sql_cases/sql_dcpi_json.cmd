$TK sql --format json $TK_TESTDATA/dcpi/simple.prof 'SELECT * FROM profile ORDER BY count DESC LIMIT 3'
