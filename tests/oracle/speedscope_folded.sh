#!/usr/bin/env bash
# Oracle: `convert -o x.speedscope.json` follows speedscope's file format
# (https://www.speedscope.app/file-format-schema.json: shared frames, a
# "sampled" profile whose samples index them and whose weights match) and
# carries the same stacks and weights as `convert --to folded` (each
# sample's frame names joined with ';'), hence the same per-frame totals;
# the profile is named by the event (report's first) and its unit is
# nanoseconds for cpu-clock/task-clock, else none; its total is report's
# total period (also with report's --time filter).
# On testdata perf.data files and a fresh `perf record -g` of
# examples/workload.c when perf can record.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}" "${TK_TESTDATA:?}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0; checked=0

check() { # perf.data label [filter options, given to convert and report alike]
  local in=$1 label=$2
  shift 2
  if ! "$TK" convert -q "$in" "$@" -o "$work/p.speedscope.json" 2>"$work/err" ||
     ! "$TK" convert -q "$in" "$@" -o "$work/p.folded" 2>>"$work/err" ||
     ! "$TK" report -q "$in" "$@" >"$work/report.txt" 2>>"$work/err"; then
    echo "FAIL $label: convert: $(head -3 "$work/err")"; failed=1; return
  fi
  if /usr/bin/python3 - "$work/p.speedscope.json" "$work/p.folded" "$label" "$work/report.txt" <<'PY'; then checked=$((checked + 1)); else failed=1; fi
import json, sys
from collections import Counter
doc = json.load(open(sys.argv[1], encoding="utf-8"))
label = sys.argv[3]
errors = []
def need(cond, what):
    if not cond:
        errors.append(what)
need(doc.get("$schema") == "https://www.speedscope.app/file-format-schema.json", "$schema")
frames = doc.get("shared", {}).get("frames")
need(isinstance(frames, list) and all(isinstance(f, dict) and isinstance(f.get("name"), str) for f in frames),
     "shared.frames: objects with a string name")
profiles = doc.get("profiles")
need(isinstance(profiles, list) and len(profiles) >= 1, "profiles")
api = doc.get("activeProfileIndex", 0)
need(isinstance(api, int) and 0 <= api < len(profiles or []), "activeProfileIndex")
got = Counter()
for p in profiles or []:
    need(p.get("type") == "sampled", "profile type sampled")
    need(p.get("unit") in ("none", "nanoseconds", "microseconds", "milliseconds", "seconds", "bytes"), "unit")
    # named by the event folded (report's first), nanoseconds for the clocks
    table = [l.split() for l in open(sys.argv[4]).read().split("------------\n", 1)[1].split("\n\n")[0].splitlines()]
    need(p.get("endValue") == int(table[0][-1]), "endValue %r is report's total period %s" % (p.get("endValue"), table[0][-1]))
    events = [l.split()[0] for l in open(sys.argv[4]).read().split("------------\n", 1)[1].split("\n\n")[0].splitlines()]
    need(p.get("name") == events[0], "profile name %r is report's first event %r" % (p.get("name"), events[0]))
    clock = events[0].split(":")[0] in ("cpu-clock", "task-clock")
    need(p.get("unit") == ("nanoseconds" if clock else "none"), "unit %r for %s" % (p.get("unit"), events[0]))
    s, w = p.get("samples"), p.get("weights")
    need(isinstance(s, list) and isinstance(w, list) and len(s) == len(w), "samples and weights of one length")
    need(all(isinstance(x, int) and x >= 0 for x in w), "weights are non-negative integers")
    need(all(isinstance(st, list) and st and all(isinstance(i, int) and 0 <= i < len(frames) for i in st)
             for st in s), "samples index shared.frames")
    need(p.get("endValue", 0) - p.get("startValue", 0) == sum(w), "endValue - startValue = sum(weights)")
    if not errors:
        for st, wt in zip(s, w):
            got[";".join(frames[i]["name"] for i in st)] += wt
want = Counter()
for line in open(sys.argv[2], encoding="utf-8", errors="surrogateescape"):
    stack, _, weight = line.rstrip("\n").rpartition(" ")
    want[stack] += int(weight)
need(len(want) > 0, "folded output has stacks")
if not errors and got != want:
    diff = sorted(set(got.items()) ^ set(want.items()))[:5]
    errors.append("stacks differ from folded: %r" % diff)
def per_frame(c):
    t = Counter()
    for stack, wt in c.items():
        for f in set(stack.split(";")):
            t[f] += wt
    return t
if not errors and per_frame(got) != per_frame(want):
    errors.append("per-frame totals differ")
for e in errors:
    print("FAIL %s: %s" % (label, e))
if not errors:
    print("ok %s: %d stacks, %d frames" % (label, len(want), len(frames)))
sys.exit(1 if errors else 0)
PY
}

for f in pdc/with-callchain.perf.data perfparser/vector_static_gcc__perf.data \
         perfparser/cpp-inlining__cpp-inlining.perf.data simpleperf/perf_with_two_event_types.data \
         lpd/fibo.compressed2.pipe.data; do
  [ -f "$TK_TESTDATA/perf/$f" ] && check "$TK_TESTDATA/perf/$f" "$f"
done
if command -v perf >/dev/null && cc -O1 -g -fno-omit-frame-pointer -o "$work/workload" "$TK_SOURCE_DIR/examples/workload.c" &&
   perf record -q -g -e cpu-clock -c 100000 -o "$work/fresh.data" -- "$work/workload" >/dev/null 2>"$work/rec.err"; then
  check "$work/fresh.data" "fresh perf record -g of workload"
  check "$work/fresh.data" "fresh perf record -g of workload, --time 20%-70%" --time 20%-70%
else
  echo "note: perf cannot record here; fresh recording not checked"
fi
[ "$checked" -gt 0 ] || { echo "FAIL: nothing checked"; exit 1; }
exit $failed
