#!/usr/bin/env bash
# Oracle: `go tool pprof -top -nodecount=20` of `tracekit convert --to
# pprof` shows the rows of `tracekit report` (each event): the same
# names with the same flat % (report's period shares rounded to 0.01 as
# pprof prints them). pprof hides rows below its node fraction (cum <=
# 0.5%) and orders ties its own way, so: every pprof row is a report row
# with its %, and every report row larger than pprof's smallest and than
# 0.5% is shown.
# Checked on testdata perf.data files, a fresh `perf record -g` of
# examples/workload.c and a system-wide `perf record -a -g`. Skipped (77) without go.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}" "${TK_TESTDATA:?}"
if ! command -v go >/dev/null || ! go tool -n pprof >/dev/null 2>&1; then
  echo "SKIP: go tool pprof is not installed (Debian golang-go)"; exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# go writes caches under HOME/GOCACHE; keep them here so CI works offline
export HOME="$work/home" GOCACHE="$work/gocache" GOFLAGS=-mod=mod GOTOOLCHAIN=local PPROF_TMPDIR="$work"
mkdir -p "$HOME"
failed=0; checked=0

# Mappings as `pprof -raw` lists them carry the build ids `perf
# buildid-list` gives for the same files; every location's function is
# named and has the image's file name.
ids_checked=0
check_mappings() { # perf.data label
  command -v perf >/dev/null || return 0
  perf buildid-list -i "$1" >"$work/ids.txt" 2>/dev/null || return 0
  go tool pprof -raw "$work/p.pb.gz" >"$work/raw.txt" 2>/dev/null || { echo "FAIL $2: pprof -raw"; failed=1; return; }
  local n
  n=$(/usr/bin/python3 - "$work/raw.txt" "$work/ids.txt" "$2" <<'PY'
import re, sys
raw, ids, label = open(sys.argv[1]).read(), open(sys.argv[2]).read().splitlines(), sys.argv[3]
perf_ids = {}
for l in ids:
    bid, _, name = l.partition(" ")
    perf_ids[name] = bid
maps = {}
section = None
checked = bad = 0
for l in raw.splitlines():
    if l in ("Samples:", "Locations", "Mappings"):
        section = l; continue
    if section == "Mappings":
        m = re.match(r"^(\d+): 0x[0-9a-f]+/0x[0-9a-f]+/0x[0-9a-f]+ (.*?)(?: ([0-9a-f]{8,}))? \[FN\]$", l)
        if not m:
            continue
        name = m.group(2).rstrip()  # no build id: two spaces
        maps[m.group(1)] = name
        if name in perf_ids:
            checked += 1
            if perf_ids[name] != (m.group(3) or ""):
                print("FAIL %s: mapping %s: build id %r, perf buildid-list %r" % (label, name, m.group(3), perf_ids[name]), file=sys.stderr); bad += 1
    elif section == "Locations":
        m = re.match(r"^\s*\d+: 0x[0-9a-f]+ M=(\d+) (.+):0 s=0(?:\(.*\))?$", l)
        if m and not m.group(2).strip():
            print("FAIL %s: unnamed function: %s" % (label, l), file=sys.stderr); bad += 1
located = 0
for l in raw.split("Locations", 1)[-1].split("Mappings", 1)[0].splitlines():
    m = re.match(r"^\s*\d+: 0x[0-9a-f]+ M=(\d+) (.+):0 s=0(?:\(.*\))?$", l)
    if m:
        located += 1
    if m and m.group(1) in maps and not m.group(2).endswith(" " + maps[m.group(1)]):
        print("FAIL %s: location file is not its mapping's: %s" % (label, l), file=sys.stderr); bad += 1
if not located:
    print("FAIL %s: no location line of pprof -raw understood" % label, file=sys.stderr); bad += 1
print(-1 if bad else checked)
PY
)
  if [ "$n" = -1 ]; then failed=1; else ids_checked=$((ids_checked + n)); fi
}

# Call stacks: per function, the period of the stacks holding it (pprof's
# cum, computed from `pprof -raw`: samples of the first event with their
# location lists) equals folded's per-frame total, for every function both
# name alike (folded names unknown frames "[dso]" and cuts names at "(").
check_stacks() { # perf.data label [filter options]
  "$TK" convert -q "$1" "${@:3}" -o "$work/p.folded" 2>/dev/null || { echo "FAIL $2: folded"; failed=1; return; }
  go tool pprof -raw "$work/p.pb.gz" >"$work/raw2.txt" 2>/dev/null || { echo "FAIL $2: pprof -raw"; failed=1; return; }
  local rc=0
  /usr/bin/python3 - "$work/raw2.txt" "$work/p.folded" "$2" <<'PY' || rc=$?
import re, sys
from collections import Counter
raw, label = open(sys.argv[1]).read().splitlines(), sys.argv[3]
folded = Counter()
for line in open(sys.argv[2], encoding="utf-8", errors="surrogateescape"):
    stack, _, w = line.rstrip("\n").rpartition(" ")
    for f in set(stack.split(";")[1:]):  # not the comm
        folded[f] += int(w)
names = sorted((n for n in folded if not n.startswith("[")), key=len, reverse=True)
section, samples, locfunc = None, [], {}
for l in raw:
    if l in ("Samples:", "Locations", "Mappings"):
        section = l; continue
    if section == "Samples:":
        m = re.match(r"^\s*(\d+)\s+(\d+)(?:\s+\d+)*: ([\d ]+)$", l.rstrip())
        if m:
            samples.append((int(m.group(2)), m.group(3).split()))
    elif section == "Locations":
        m = re.match(r"^\s*(\d+): 0x[0-9a-f]+ (?:M=\d+ )?(.*) \S*:\d+ s=\d+(?:\(.*\))?$", l)
        if m:
            locfunc[m.group(1)] = next((n for n in names if m.group(2) == n), m.group(2))
cum = Counter()
for w, locs in samples:
    if w:
        for f in {locfunc.get(i) for i in locs}:
            cum[f] += w
common = [n for n in names if n in cum]
bad = [(n, cum[n], folded[n]) for n in common if cum[n] != folded[n]]
for b in bad[:5]:
    print("FAIL %s: %r: pprof cum %d, folded %d" % (label, *b))
if not common:
    print("note %s: stacks: no symbol names (folded has only [dso] frames)" % label); sys.exit(3)
if not bad:
    print("ok %s: stacks: %d functions' totals equal folded's" % (label, len(common)))
sys.exit(1 if bad else 0)
PY
  case $rc in 0) stacks_checked=$((stacks_checked + 1)) ;; 3) ;; *) failed=1 ;; esac
}
stacks_checked=0

check() { # perf.data label [filter options, given to convert and report alike]
  local in=$1 label=$2
  shift 2
  if ! "$TK" convert -q "$in" "$@" -o "$work/p.pb.gz" 2>"$work/err"; then
    echo "FAIL $label: convert: $(head -3 "$work/err")"; failed=1; return
  fi
  "$TK" report -q "$in" "$@" >"$work/report.txt" 2>/dev/null || { echo "FAIL $label: report"; failed=1; return; }
  check_mappings "$in" "$label"
  check_stacks "$in" "$label" "$@"
  # one report table per event; pprof's sample type 2i+1 is event i's
  # period (the first is the default: no -sample_index)
  local nev i
  nev=$(grep -c 'procedure  *image$' "$work/report.txt")
  for ((i = 0; i < nev; i++)); do
    if ! go tool pprof -top -nodecount=20 $([ $i -gt 0 ] && echo "-sample_index=$((2 * i + 1))") \
         "$work/p.pb.gz" >"$work/top.txt" 2>"$work/top.err"; then
      echo "FAIL $label: pprof: $(head -3 "$work/top.err")"; failed=1; return
    fi
    compare_top "$label (event $((i + 1)) of $nev)" "$i"
  done
}

compare_top() { # label table-index
  if /usr/bin/python3 - "$work/report.txt" "$work/top.txt" "$1" "$2" <<'PY'; then checked=$((checked + 1)); else failed=1; fi
import re, sys
rep, top, label = open(sys.argv[1]).read().splitlines(), open(sys.argv[2]).read().splitlines(), sys.argv[3]
# report: the event's table (header "EVENT  %  cum%  procedure  image")
hdr = [i for i, l in enumerate(rep) if re.search(r"\bprocedure\s+image$", l)][int(sys.argv[4])]
col = rep[hdr].index("procedure")
counts = {}
for l in rep[hdr + 1:]:
    if not l.strip():
        break  # the next event's table
    name = l[col:].rsplit("  ", 1)[0].rstrip()
    counts[name] = counts.get(name, 0) + int(l.split()[0])
event_total = sum(counts.values())
# report's shares as pprof prints them (measurement.Percentage: value /
# total * 100, then %.2f, or %.2g below 1%): 100.0 * c / total rounded
# would differ at a boundary (103 of 4000 is 2.57 one way, 2.58 the other)
def pprof_pct(c):
    r = c / event_total * 100
    return 100.0 if 99.95 <= r <= 100.05 else float(("%.2f" if r >= 1 else "%.2g") % r)
rpct = {n: pprof_pct(c) for n, c in counts.items()}
# pprof -top rows: flat flat% sum% cum cum% name
rows = []
it = iter(top)
for l in it:
    if re.match(r"\s*flat\s+flat%", l):
        break
for l in it:
    m = re.match(r"\s*\S+\s+(-?[\d.]+)%\s+[\d.]+%\s+\S+\s+[\d.]+%\s+(.*)$", l)
    # flat 0: a caller only (pprof fills the top with those), not a report row
    if m and float(m.group(1)) > 0:
        rows.append((m.group(2), float(m.group(1))))
ok = bool(rows)
if not rows:
    print("FAIL %s: pprof printed no rows" % label)
for name, pct in rows:
    if name not in rpct:
        print("FAIL %s: pprof row %r (%.2f%%) is not in report" % (label, name, pct)); ok = False
    elif abs(rpct[name] - pct) > 1e-9:
        print("FAIL %s: %r: pprof %.2f%%, report %.2f%%" % (label, name, pct, rpct[name])); ok = False
if rows:
    shown = {n for n, _ in rows}
    low = min(p for _, p in rows)
    for n, p in rpct.items():
        # pprof drops nodes whose cum is <= 0.5% (its node fraction) and keeps
        # smaller flat rows whose cum is larger: only rows above both count
        if p > max(low, 0.5) + 0.0051 and n not in shown:
            print("FAIL %s: report row %r (%.2f%%) above pprof's smallest (%.2f%%) is missing" % (label, n, p, low)); ok = False
if ok:
    print("ok %s: %d rows" % (label, len(rows)))
sys.exit(0 if ok else 1)
PY
}

for f in pdc/with-callchain.perf.data perfparser/vector_static_gcc__perf.data \
         perfparser/cpp-inlining__cpp-inlining.perf.data simpleperf/perf_with_two_event_types.data \
         pdc/multi-event-single-process.perf.data; do
  [ -f "$TK_TESTDATA/perf/$f" ] && check "$TK_TESTDATA/perf/$f" "$f"
done

if command -v perf >/dev/null && cc -O1 -g -fno-omit-frame-pointer -o "$work/workload" "$TK_SOURCE_DIR/examples/workload.c" &&
   perf record -q -g -e cpu-clock -c 100000 -o "$work/fresh.data" -- "$work/workload" >/dev/null 2>"$work/rec.err"; then
  check "$work/fresh.data" "fresh perf record -g of workload"
  # C++: templates and namespaces keep their names (pprof strips "<...>"
  # from functions it takes for not yet demangled)
  cat >"$work/tpl.cc" <<'CC'
#include <cstdio>
#include <vector>
template <typename T> struct Box {
	T v;
	__attribute__((noinline)) T spin(unsigned n)
	{
		volatile T x = v;
		for (unsigned i = 0; i < n; i++)
			x = x * 3 + i;
		return x;
	}
};
namespace ns {
__attribute__((noinline)) long work(std::vector<int> &v, int k)
{
	volatile long s = 0;
	for (int r = 0; r < k; r++)
		for (int x : v)
			s = s + x * r;
	return s;
}
} // namespace ns
int main()
{
	Box<long> b{1};
	std::vector<int> v(100000, 3);
	long s = 0;
	for (int i = 0; i < 10; i++)
		s += b.spin(3000000) + ns::work(v, 20);
	std::printf("%ld\n", s);
}
CC
  if command -v g++ >/dev/null && g++ -O1 -g -fno-omit-frame-pointer -o "$work/tpl" "$work/tpl.cc" &&
     perf record -q -g -e cpu-clock -c 100000 -o "$work/tpl.data" -- "$work/tpl" >/dev/null 2>"$work/rec.err"; then
    check "$work/tpl.data" "fresh perf record -g of a C++ program"
    grep -q "Box<long>::spin" "$work/top.txt" || { echo "FAIL C++: Box<long>::spin not in pprof -top"; failed=1; }
  fi
  # system-wide: many processes, kernel and user images, one name in several
  if perf record -q -a -g -o "$work/all.data" -- sleep 0.5 >/dev/null 2>"$work/rec.err"; then
    check "$work/all.data" "fresh perf record -a -g"
    # the filters report takes select the same samples
    check "$work/all.data" "fresh perf record -a -g, --cpu 0 --time 10%-60%" --cpu 0 --time 10%-60%
  else
    echo "note: no system-wide recording here: $(head -1 "$work/rec.err")"
  fi
else
  echo "note: perf cannot record here; fresh recording not checked"
fi
[ "$checked" -gt 0 ] || { echo "FAIL: nothing checked"; exit 1; }
# the testdata files carry no symbols folded can name: only fresh
# recordings check the stacks
if [ -f "$work/fresh.data" ] && [ "$stacks_checked" -eq 0 ]; then
  echo "FAIL: no recording's stacks checked against folded"; exit 1
fi
if command -v perf >/dev/null; then
  echo "build ids checked against perf buildid-list: $ids_checked mappings"
  [ "$ids_checked" -gt 0 ] || { echo "FAIL: no mapping's build id checked"; exit 1; }
fi
exit $failed
