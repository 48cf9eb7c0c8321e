#!/usr/bin/env bash
# DWARF unwinding speed (issue 16): `tracekit print --format perf-script`
# vs `perf script` on fresh `perf record --call-graph dwarf -e cpu-clock:u`
# recordings of three sizes:
#   c      tests/oracle/unwind/calls.c built -O2 -fomit-frame-pointer
#          (~1-2 k samples: both tools' start-up dominates);
#   py     python3 (json encoding and a generator, no frame pointers in
#          its callers' libraries) for SECONDS of its CPU time at -F 2000;
#   py-big the same python3 workload for BIG_SECONDS of CPU time at -F 4000
#          (default 15 s: ~60 k samples, ~500 MB; the issue's 100 k-sample
#          scale). The workloads stop on process_time(), so the sample
#          count does not depend on the machine's load.
# For each: both tools must print the same bytes (checked with cmp, also
# for the "no cache" and "prefetch" runs), then wall time with
# hyperfine (RUNS runs, default 3, 1 warm-up; means) and CPU time
# (user+sys of the process and its waited-for children, /usr/bin/time,
# best of RUNS: perf's addr2line children are counted when perf waits for
# them), samples per CPU second of tracekit, its peak RSS, and the load
# average when that file's timing started.
# "no cache" is tracekit with TRACEKIT_UNWIND_NO_CACHE=1 (libdwfl walks
# every frame, libdwfl's own Dwarf per address space for the inline
# frames, no image reuse per map: the state before the CFI rule cache
# and the per-image DWARF);
# "prefetch" is TRACEKIT_UNWIND_PREFETCH=1 (a worker thread loads the
# per-image DWARF ahead; off by default).
# Usage: bench/unwind_bench.sh [SECONDS] [BIG_SECONDS]  (defaults 5 and 15;
# BIG_SECONDS 0 skips the big file). RUNS=5 for more runs.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
TK=${TK:-$here/../build/bin/tracekit}
secs=${1:-5}
big=${2:-15}
runs=${RUNS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v hyperfine >/dev/null || { echo "hyperfine is needed (Debian: hyperfine)"; exit 1; }
pyrec() { # output, seconds of python3 CPU time, frequency
  perf record -q --call-graph dwarf -e cpu-clock:u -F "$3" -o "$1" -- /usr/bin/python3 -c "
import json, time
end = time.process_time() + $2
def f(n):
    return sum(i * i for i in range(n))
while time.process_time() < end:
    f(100000); json.dumps(list(range(20000)))" >/dev/null 2>&1
}
cc -O2 -g -fomit-frame-pointer -o "$work/calls" "$here/../tests/oracle/unwind/calls.c"
perf record -q --call-graph dwarf -e cpu-clock:u -F 2000 -o "$work/c.data" -- "$work/calls" 60000000 >/dev/null 2>&1
pyrec "$work/py.data" "$secs" 2000
names="c py"
if [ "$big" != 0 ]; then pyrec "$work/py-big.data" "$big" 4000; names="$names py-big"; fi

cpu() { # best user+sys of $runs runs
  local best=999 i t
  for i in $(seq "$runs"); do
    /usr/bin/time -f "%U %S" -o "$work/t" "$@" >/dev/null 2>&1
    t=$(awk '{print $1 + $2}' "$work/t")
    best=$(echo "if ($t < $best) $t else $best" | bc -l)
  done
  echo "$best"
}
echo "tracekit $(git -C "$here" rev-parse --short HEAD 2>/dev/null), $(perf version), $runs runs"
echo
echo "| file | samples | MB | identical | load avg | tracekit wall | prefetch wall | no cache wall | perf script wall | ratio | tracekit CPU | no cache CPU | perf script CPU | ratio | tracekit samples/CPU s | tracekit peak RSS |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for name in $names; do
  data="$work/$name.data"
  perf script -i "$data" >"$work/$name.want" 2>/dev/null
  same=yes
  "$TK" print --format perf-script "$data" | cmp -s "$work/$name.want" - || same=no
  TRACEKIT_UNWIND_NO_CACHE=1 "$TK" print --format perf-script "$data" | cmp -s "$work/$name.want" - || same=no
  TRACEKIT_UNWIND_PREFETCH=1 "$TK" print --format perf-script "$data" | cmp -s "$work/$name.want" - || same=no
  n=$(grep -c 'cpu-clock:u:' "$work/$name.want")
  mb=$(( $(stat -c %s "$data") / 1000000 ))
  rm -f "$work/$name.want"
  load=$(cut -d' ' -f1 /proc/loadavg)
  hyperfine -N -w 1 -r "$runs" --export-json "$work/$name.json" \
    "$TK print --format perf-script $data" "perf script -i $data" \
    "env TRACEKIT_UNWIND_NO_CACHE=1 $TK print --format perf-script $data" \
    "env TRACEKIT_UNWIND_PREFETCH=1 $TK print --format perf-script $data" >/dev/null 2>&1
  read -r tk pf nc np <<<"$(/usr/bin/python3 -c "
import json; r = json.load(open('$work/$name.json'))['results']
print(r[0]['mean'], r[1]['mean'], r[2]['mean'], r[3]['mean'])")"
  /usr/bin/time -f %M -o "$work/rss" "$TK" print --format perf-script "$data" >/dev/null
  tc=$(cpu "$TK" print --format perf-script "$data")
  pc=$(cpu perf script -i "$data")
  ncc=$(cpu env TRACEKIT_UNWIND_NO_CACHE=1 "$TK" print --format perf-script "$data")
  # /usr/bin/time counts in 10 ms steps: no CPU ratio or rate below that
  awk -v name="$name" -v n="$n" -v mb="$mb" -v same="$same" -v load="$load" -v tk="$tk" \
    -v np="$np" -v nc="$nc" -v pf="$pf" -v tc="$tc" -v ncc="$ncc" -v pc="$pc" \
    -v rss="$(( $(cat "$work/rss") / 1024 ))" 'BEGIN {
    cr = tc > 0 ? sprintf("%.1fx", pc / tc) : "-"; rate = tc > 0 ? sprintf("%.0f", n / tc) : "-"
    printf "| %s | %s | %s | %s | %s | %.3f s | %.3f s | %.3f s | %.3f s | %.1fx | %.2f s | %.2f s | %.2f s | %s | %s | %s MB |\n",
      name, n, mb, same, load, tk, np, nc, pf, pf / tk, tc, ncc, pc, cr, rate, rss }'
  rm -f "$data"
done
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
