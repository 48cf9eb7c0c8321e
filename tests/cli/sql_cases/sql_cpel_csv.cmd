$TK sql --format csv $TK_TESTDATA/cpel/vpp-small.cpel 'SELECT name, count(*) AS n FROM event GROUP BY name; SELECT * FROM track'
