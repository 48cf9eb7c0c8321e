$TK sql
