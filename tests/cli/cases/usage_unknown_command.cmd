$TK frobnicate x
