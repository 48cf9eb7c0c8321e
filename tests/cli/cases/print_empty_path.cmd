$TK print ""
