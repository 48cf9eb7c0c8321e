#!/usr/bin/env bash
# tracekit record vs perf record, same workload, same options, one run each
# (issue 14's bench): the workload (examples/workload.c, ROUNDS rounds) alone,
# under `perf record -F 10000 -g -a` and under `tracekit record -F 10000 -g -a`:
#  - workload wall time (its slowdown against the run alone),
#  - recorder CPU time = the recorder's user+sys minus the workload's,
#  - records lost at -F 50000 (LOST events counted by perf report --stats).
# Usage: bench/record_bench.sh [ROUNDS] (default 40). Prints a markdown table.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
TK=${TK:-$here/../build/bin/tracekit}
rounds=${1:-40}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -g -fno-omit-frame-pointer -o "$work/workload" "$here/../examples/workload.c"
T=/usr/bin/time
# run LABEL RECORDER-ARGS... : prints "wall_workload cpu_recorder lost"
run() {
  local label=$1; shift
  "$T" -f "%U %S" -o "$work/$label.outer" "$@" -- "$T" -f "%e %U %S" -o "$work/$label.inner" \
    "$work/workload" "$rounds" >/dev/null 2>"$work/$label.err"
  read -r wall iu is <"$work/$label.inner"
  read -r ou os <"$work/$label.outer"
  local lost
  lost=$(perf report --stats -i "$work/$label.data" 2>/dev/null | awk '/LOST events/ {print $3; exit}')
  echo "$wall $(echo "$ou + $os - $iu - $is" | bc -l) ${lost:-0}"
}
"$T" -f "%e" -o "$work/alone" "$work/workload" "$rounds" >/dev/null
alone=$(cat "$work/alone")
p10=$(run perf10 perf record -q -F 10000 -g -a -o "$work/perf10.data")
t10=$(run tk10 "$TK" record -q -F 10000 -g -a -o "$work/tk10.data")
p50=$(run perf50 perf record -q -F 50000 -g -a -o "$work/perf50.data")
t50=$(run tk50 "$TK" record -q -F 50000 -g -a -o "$work/tk50.data")
set -- $p10; pw=$1 pc=$2
set -- $t10; tw=$1 tc=$2
set -- $p50; pl=$3
set -- $t50; tl=$3
echo "workload alone: ${alone}s ($rounds rounds); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| -F 10000 -g -a | tracekit record | perf record |"
echo "|---|---|---|"
echo "| workload wall time | ${tw}s ($(echo "scale=2; $tw / $alone" | bc)x) | ${pw}s ($(echo "scale=2; $pw / $alone" | bc)x) |"
echo "| recorder CPU (user+sys) | ${tc}s | ${pc}s |"
echo "| LOST records at -F 50000 | $tl | $pl |"
