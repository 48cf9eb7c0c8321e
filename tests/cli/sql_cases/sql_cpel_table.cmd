$TK sql $TK_TESTDATA/cpel/vpp-small.cpel 'SELECT ts, name, category, stream, args FROM event ORDER BY ts'
