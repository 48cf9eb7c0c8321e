$TK print --limit lots x
