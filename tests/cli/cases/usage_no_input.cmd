$TK print
