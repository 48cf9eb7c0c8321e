$TK print --bogus x
