$TK convert LICENSE
