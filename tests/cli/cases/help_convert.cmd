$TK convert --help
