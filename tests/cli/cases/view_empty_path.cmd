$TK view "" -o "$tmp/view.html"
