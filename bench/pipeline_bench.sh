#!/usr/bin/env bash
# The one-pipeline change (sessions, format entries, tk_convert) against the
# tree before it, in one run: builds BEFORE (a git revision, default main)
# and AFTER (this working tree) side by side, then times with hyperfine,
# the two binaries taking turns on each command:
#   perf-script: print --format perf-script of a `perf record -g -a` file
#   ctf-print:   print --format babeltrace of a CTF trace (the same
#                recording converted by tracekit)
#   ctf-text:    print --format text of that trace (the generic printer,
#                now on a model session)
#   perf-to-ctf: convert --to ctf of the recording
#   ctf-stats:   stats of the CTF trace (the span-only read, now on a
#                native CTF session)
# Checks first that both binaries write identical outputs; counts the
# instructions each run executes (valgrind, when present: a figure the
# machine's load does not move). Three rounds of
# hyperfine (before, then after, RUNS each) so both see the same machine
# load; prints the median and min wall time and the median CPU (user+sys)
# per binary and the ratios after/before; the issue allows at most 1.03.
# EXTRA_CTF="DIR ..." adds print --format babeltrace and stats of those CTF
# traces (e.g. bench/ctf_bench.sh's dmesg and LTTng-UST traces) to every step.
# AFTER_BIN=path times that binary as AFTER instead of building this tree.
# Usage: bench/pipeline_bench.sh [BEFORE_REV] [SIZE_MB] [RUNS]
#   (needs perf, hyperfine, cmake; WORK=dir for the builds and inputs)
set -euo pipefail
cd "$(dirname "$0")/.."
before_rev=${1:-main}
size_mb=${2:-20}
runs=${3:-10}
work=${WORK:-bench/work/pipeline}
mkdir -p "$work"
work=$(cd "$work" && pwd)
for tool in perf hyperfine cmake; do
	command -v "$tool" >/dev/null || { echo "needs $tool"; exit 1; }
done

# ---- the two builds ----
rev=$(git rev-parse --short "$before_rev")
if [ ! -x "$work/before-$rev/build/bin/tracekit" ]; then
	rm -rf "$work/before-$rev"
	mkdir -p "$work/before-$rev"
	git archive "$rev" | tar -x -C "$work/before-$rev"
	cmake -S "$work/before-$rev" -B "$work/before-$rev/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DTK_TESTS=OFF >/dev/null
	cmake --build "$work/before-$rev/build" -j2 --target tracekit >/dev/null
fi
if [ -n "${AFTER_BIN:-}" ]; then # a binary built elsewhere (one change alone)
	after=$AFTER_BIN
else
	cmake -S . -B "$work/after-build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTK_TESTS=OFF >/dev/null
	cmake --build "$work/after-build" -j2 --target tracekit >/dev/null
	after=$work/after-build/bin/tracekit
fi
before=$work/before-$rev/build/bin/tracekit
echo "before: $before_rev ($rev)   after: ${AFTER_BIN:-$(git rev-parse --short HEAD)$(git diff --quiet || echo +changes)}"

# ---- inputs ----
data=$work/rec-${size_mb}mb.data
if [ ! -s "$data" ]; then
	cc -O1 -g -fno-omit-frame-pointer -o "$work/workload" examples/workload.c
	perf record -q -F 10000 -g -a -o "$data" -- sh -c "
	  while [ \$(stat -c %s $data 2>/dev/null || echo 0) -lt $((size_mb * 1000000)) ]; do
	    $work/workload 1 >/dev/null & $work/workload 1 >/dev/null; wait; done" >/dev/null 2>&1
fi
ctf=$work/rec-${size_mb}mb-ctf
[ -f "$ctf/metadata" ] || "$before" convert "$data" -o "$ctf" --to ctf 2>/dev/null
echo "input: $data ($(du -m "$data" | cut -f1) MB), $ctf ($(du -sm "$ctf" | cut -f1) MB)"

# ---- same outputs ----
same() { # name, args...
	local name=$1
	shift
	"$before" "$@" >"$work/out.before" 2>/dev/null || true
	"$after" "$@" >"$work/out.after" 2>/dev/null || true
	if cmp -s "$work/out.before" "$work/out.after"; then
		echo "output $name: identical ($(wc -c <"$work/out.after") bytes)"
	else
		echo "output $name: DIFFERS"
	fi
	rm -f "$work/out.before" "$work/out.after"
}
same perf-script print --format perf-script "$data"
same ctf-print print --format babeltrace "$ctf"
same ctf-text print --format text "$ctf"
same ctf-stats stats "$ctf"
k=0
for t in ${EXTRA_CTF:-}; do
	k=$((k + 1))
	same "ctf$k-print" print --format babeltrace "$t"
	same "ctf$k-stats" stats "$t"
done
rm -rf "$work/ctf-b" "$work/ctf-a"
"$before" convert "$data" -o "$work/ctf-b" --to ctf 2>/dev/null
"$after" convert "$data" -o "$work/ctf-a" --to ctf 2>/dev/null
# each trace has a random UUID: compare what babeltrace2 reads (else our text)
reader=("$after" print --format babeltrace)
command -v babeltrace2 >/dev/null && reader=(babeltrace2)
if cmp -s <("${reader[@]}" "$work/ctf-b" 2>&1) <("${reader[@]}" "$work/ctf-a" 2>&1); then
	echo "output perf-to-ctf: identical (${reader[0]##*/} text of the traces)"
else
	echo "output perf-to-ctf: DIFFERS"
fi
sync

# ---- timings: hyperfine, before and after taking turns per command ----
bench() { # name, args... (tracekit arguments; OUT dirs are removed first)
	local name=$1
	shift
	local args="$*" r
	# rounds of before then after, so that both see the same load
	for r in 1 2 3; do
		hyperfine -N --warmup 1 --runs "$runs" --style none \
			--export-json "$work/$name.$r.json" --prepare "rm -rf $work/ctf-out" \
			-n before "$before $args" -n after "$after $args" >/dev/null 2>&1
	done
	/usr/bin/python3 - "$name" "$work/$name".[123].json <<'PY'
import json, statistics, sys
t = {"before": {"wall": [], "cpu": []}, "after": {"wall": [], "cpu": []}}
for f in sys.argv[2:]:
    for x in json.load(open(f))["results"]:
        t[x["command"]]["wall"] += x["times"]
        t[x["command"]]["cpu"] += [u + s for u, s in zip(x["user"], x["system"])] \
            if isinstance(x["user"], list) else [x["user"] + x["system"]] * len(x["times"])
b, a = t["before"], t["after"]
med = statistics.median
print("%-12s before: median %.3fs min %.3fs cpu %.3fs | after: median %.3fs min %.3fs cpu %.3fs"
      " | after/before: median %.3f min %.3f cpu %.3f (%d runs each)" % (
    sys.argv[1], med(b["wall"]), min(b["wall"]), med(b["cpu"]), med(a["wall"]), min(a["wall"]),
    med(a["cpu"]), med(a["wall"]) / med(b["wall"]), min(a["wall"]) / min(b["wall"]),
    med(a["cpu"]) / med(b["cpu"]), len(a["wall"])))
PY
}
# ---- instructions (valgrind's count: the same on a loaded machine) ----
if command -v valgrind >/dev/null; then
	ir() { valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 \
		>/dev/null | awk '/I +refs/ {gsub(",", "", $4); print $4}'; }
	count() { # name, args...
		local name=$1 b a
		shift
		rm -rf "$work/ctf-out"
		b=$(ir "$before" "$@")
		rm -rf "$work/ctf-out"
		a=$(ir "$after" "$@")
		echo "$name instructions: before $b after $a after/before $(echo "scale=4; $a / $b" | bc)"
	}
	count perf-script print --format perf-script "$data"
	count ctf-print print --format babeltrace "$ctf"
	count ctf-text print --format text "$ctf"
	count perf-to-ctf convert "$data" -o "$work/ctf-out" --to ctf
	count ctf-stats stats "$ctf"
	k=0
	for t in ${EXTRA_CTF:-}; do
		k=$((k + 1))
		count "ctf$k-print" print --format babeltrace "$t"
		count "ctf$k-stats" stats "$t"
	done
fi

bench perf-script print --format perf-script "$data"
bench ctf-print print --format babeltrace "$ctf"
bench ctf-text print --format text "$ctf"
bench perf-to-ctf convert "$data" -o "$work/ctf-out" --to ctf
bench ctf-stats stats "$ctf"
k=0
for t in ${EXTRA_CTF:-}; do
	k=$((k + 1))
	echo "ctf$k: $t"
	bench "ctf$k-print" print --format babeltrace "$t"
	bench "ctf$k-stats" stats "$t"
done
rm -rf "$work/ctf-out" "$work/ctf-a" "$work/ctf-b" "$work"/*.json
