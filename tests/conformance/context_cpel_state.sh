#!/usr/bin/env bash
# CPEL/elog state spans of the model context follow `report --state`'s
# rule: for every event of the shared CPEL and elog files, the complete
# state spans ("X", args.kind state, not truncated) that Chrome JSON writes
# on each track (named by its thread_name) have the count and total of
# `tracekit report --state EVENT` on that track. Parsed with /usr/bin/python3.
set -u
: "${TK:?}" "${TK_TESTDATA:?}"
py=/usr/bin/python3
[ -x "$py" ] || { echo "SKIP: no $py"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0; checked=0
for f in basic.cpel basic-le.cpel vpp-small.cpel vpp-new.cpel vpp-small.elog vpp-new.elog; do
  in="$TK_TESTDATA/cpel/$f"
  [ -e "$in" ] || continue
  "$TK" convert "$in" --to chrome -o "$work/c.json" || { echo "FAIL $f: convert"; failed=$((failed+1)); continue; }
  # the event names, from the model (JSON lines)
  "$TK" convert "$in" --to json -o - | $py -c '
import json, sys
print("\n".join(sorted({json.loads(l)["event"] for l in sys.stdin})))' >"$work/names"
  while IFS= read -r name; do
    "$TK" report --state "$name" "$in" >"$work/r.txt" 2>/dev/null || continue
    if out=$($py - "$work/r.txt" "$work/c.json" "$name" <<'PY'
import collections, json, sys
rep, chrome, name = sys.argv[1:4]
want = {}
for line in open(rep):
    if line.startswith("#") or line.startswith("track "):
        continue
    f = line.split()
    if len(f) < 7 or " ".join(f[:-6]) == "all":
        continue
    want[" ".join(f[:-6])] = (int(f[-6]), int(f[-1]))
ev = json.load(open(chrome))["traceEvents"]
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
got = collections.defaultdict(lambda: [0, 0])
for e in ev:
    if e["ph"] == "X" and e["args"].get("kind") == "state" and e["name"] == name and not e["args"].get("truncated"):
        g = got[names[(e["pid"], e["tid"])]]
        g[0] += 1
        g[1] += int(round(e["dur"] * 1000))
got = {k: tuple(v) for k, v in got.items()}
if got != want:
    sys.exit("report --state says %r, the spans %r" % (want, got))
print(len(want))
PY
    ); then checked=$((checked+1)); else echo "FAIL $f '$name': $out"; failed=$((failed+1)); fi
  done <"$work/names"
done
[ $checked -gt 0 ] || { echo "FAIL: nothing checked"; exit 1; }
echo "$checked events: state spans = report --state per track"
exit $((failed > 0))
