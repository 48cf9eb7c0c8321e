#!/usr/bin/env bash
# tracekit view --open: with no display the page is written and a note says
# to open it; with a display $BROWSER (here a script that records its
# arguments) is started on the page.
set -u
: "${TK:?}" "${TK_TESTDATA:?}"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
f="$TK_TESTDATA/cpel/vpp-small.cpel"
fail=0
env -u DISPLAY -u WAYLAND_DISPLAY "$TK" view "$f" -o "$work/a.html" --open 2>"$work/err"; rc=$?
if [ $rc -eq 0 ] && [ -s "$work/a.html" ] && grep -q "no display" "$work/err"; then
  echo "ok: no display: page written, $(cat "$work/err")"
else echo "FAIL: no display: exit $rc, $(cat "$work/err")"; fail=1; fi
printf '#!/bin/sh\necho "$@" >"%s/opened.tmp" && mv "%s/opened.tmp" "%s/opened"\n' "$work" "$work" "$work" >"$work/browser"
chmod +x "$work/browser"
DISPLAY=:99 BROWSER="$work/browser" "$TK" view "$f" -o "$work/b.html" --open; rc=$?
for _ in $(seq 100); do [ -f "$work/opened" ] && break; sleep 0.1; done
if [ $rc -eq 0 ] && [ "$(cat "$work/opened" 2>/dev/null)" = "$work/b.html" ]; then
  echo "ok: with a display, \$BROWSER is started on the page"
else echo "FAIL: \$BROWSER got '$(cat "$work/opened" 2>/dev/null)' (exit $rc)"; fail=1; fi
exit $fail
