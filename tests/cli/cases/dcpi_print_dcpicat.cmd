$TK print --format dcpicat $TK_TESTDATA/dcpi/optional-unknown.prof
