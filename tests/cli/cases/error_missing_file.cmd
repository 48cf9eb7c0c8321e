$TK info /nonexistent/trace
