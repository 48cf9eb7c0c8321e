$TK print --help
