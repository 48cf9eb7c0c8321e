$TK
