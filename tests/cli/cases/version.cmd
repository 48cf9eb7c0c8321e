$TK --version
