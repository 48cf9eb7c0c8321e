#!/usr/bin/env bash
# An input that cannot be read leaves no page: exit 1, the error names the
# file (and the offset for damaged files), and -o's path does not exist.
set -u
: "${TK:?}" "${TK_TESTDATA:?}"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail=0
try() { # WHAT EXPECTED-STDERR-PATTERN INPUT...
  local what=$1 pat=$2; shift 2
  rm -f "$work/v.html"
  "$TK" view "$@" -o "$work/v.html" 2>"$work/err"; local rc=$?
  if [ $rc -eq 1 ] && [ ! -e "$work/v.html" ] && grep -q -- "$pat" "$work/err" && ! ls "$work" | grep -q '^\.v\.html\|tmp'; then
    echo "ok: $what: exit 1, no page ($(head -1 "$work/err"))"
  else echo "FAIL: $what: exit $rc, page $( [ -e "$work/v.html" ] && echo written || echo absent): $(head -2 "$work/err")"; fail=1; fi
}
try "missing file" "nonexistent" "$work/nonexistent.data"
printf 'not a trace at all\n' >"$work/junk"
try "unknown format" "junk" "$work/junk"
try "truncated CPEL" "offset" "$TK_TESTDATA/cpel/bad-truncated.cpel"
try "damaged DCPI" "bad-truncated.prof" "$TK_TESTDATA/dcpi/bad-truncated.prof"
try "a good file muxed with a bad one" "bad-truncated" "$TK_TESTDATA/cpel/vpp-new.cpel" "$TK_TESTDATA/cpel/bad-truncated.cpel"
"$TK" view "$TK_TESTDATA/cpel/vpp-new.cpel" 2>/dev/null; rc=$?
[ $rc -eq 2 ] && echo "ok: no -o is a usage error (2)" || { echo "FAIL: no -o: exit $rc"; fail=1; }
exit $fail
