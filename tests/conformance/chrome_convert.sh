#!/usr/bin/env bash
# Chrome trace JSON from real inputs: a perf recording with call chains
# (examples/demo.perf.data) and a CTF trace from the shared data parse, carry
# the keys each event type needs, and their stacks resolve.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}" "${TK_TESTDATA:?}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
check="python3 $TK_SOURCE_DIR/tests/support/check_chrome.py"
fail=0
n=$("$TK" print "$TK_SOURCE_DIR/examples/demo.perf.data" | grep -vc $'^\t')
"$TK" convert "$TK_SOURCE_DIR/examples/demo.perf.data" -o "$work/perf.json" &&
  $check "$work/perf.json" "$n" --stacks || { echo "FAIL perf -> chrome"; fail=1; }
trace="$TK_TESTDATA/ctf/babeltrace/succeed/wk-heartbeat-u"
n=$("$TK" print --format json "$trace" | wc -l)
"$TK" convert "$trace" -o "$work/ctf.json" && $check "$work/ctf.json" "$n" ||
  { echo "FAIL ctf -> chrome"; fail=1; }
"$TK" convert "$trace" -o "$work/ctf.jsonl" &&
  cmp -s "$work/ctf.jsonl" <("$TK" print --format json "$trace") ||
  { echo "FAIL ctf -> json lines differs from print --format json"; fail=1; }
[ $fail -eq 0 ] && echo "chrome and json outputs ok"
exit $fail
