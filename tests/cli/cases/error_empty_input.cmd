$TK info /dev/null
