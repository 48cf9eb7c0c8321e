#!/usr/bin/env bash
# `tracekit sql FILE` with a terminal on stdin and no query: a prompt that
# runs each statement once it is complete (several lines), .tables and .quit
# (script(1) gives the command a pseudo-terminal). The counts it prints are
# the ones `tracekit stats` gives.
set -u
: "${TK:?}" "${TK_TESTDATA:?}"
if "$TK" sql /dev/null 'SELECT 1' 2>&1 | grep -q 'not available'; then
  echo "SKIP: tracekit built without sqlite3"; exit 77
fi
command -v script >/dev/null || { echo "SKIP: no script(1)"; exit 77; }
f="$TK_TESTDATA/cpel/vpp-small.cpel"
out=$(printf '.tables\nSELECT name,\n  count(*) AS n FROM event GROUP BY name;\n.quit\n' |
  timeout 60 script -qec "$TK sql $f" /dev/null | tr -d '\r')
fail=0
grep -q '^tracekit> ' <<<"$out" || { echo "FAIL: no prompt"; fail=1; }
grep -q '\.\.\.> ' <<<"$out" || { echo "FAIL: no continuation prompt"; fail=1; }
grep -q '^thread_state$' <<<"$out" || { echo "FAIL: .tables did not list thread_state"; fail=1; }
while read -r n code name; do
  grep -Eq "^$name +$n\$" <<<"$out" || { echo "FAIL: no '$name $n' row (stats)"; fail=1; }
done < <("$TK" stats "$f" | awk '/^per event code:/ { on = 1; next } /^per / { on = 0 } on')
[ $fail -eq 0 ] && echo "prompt: statements over several lines, .tables, .quit"
[ $fail -eq 0 ] || printf '%s\n' "$out"
exit $fail
