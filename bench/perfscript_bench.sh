#!/usr/bin/env bash
# perf script benchmark: `tracekit print --format perf-script` against
# `perf script` (default output) on the same ~50 MB `perf record -g -a`
# recording: checks the outputs are identical, then reports wall and CPU
# (user+sys) time of each, best of 6 (3 and 3, taking turns). On a loaded
# machine compare CPU time.
# Usage: bench/perfscript_bench.sh [SIZE_MB]   (needs perf; run `make` first)
set -euo pipefail
cd "$(dirname "$0")/.."
TK=${TK:-build/bin/tracekit}
size_mb=${1:-50}
work=bench/work
mkdir -p "$work"
data=$work/perfscript-${size_mb}mb.data
if [ ! -s "$data" ]; then
  cc -O1 -g -fno-omit-frame-pointer -o "$work/workload" examples/workload.c
  perf record -q -F 15000 -g -a -o "$data" -- sh -c "
    while [ \$(stat -c %s $data 2>/dev/null || echo 0) -lt $((size_mb * 1000000)) ]; do
      $work/workload 2 >/dev/null & $work/workload 2 >/dev/null; wait; done" >/dev/null 2>&1
fi
echo "input: $data ($(du -m "$data" | cut -f1) MB)"
perf script -i "$data" >"$work/perfscript.want" 2>/dev/null
"$TK" print --format perf-script "$data" >"$work/perfscript.got"
if cmp -s "$work/perfscript.want" "$work/perfscript.got"; then
  echo "output: identical ($(wc -l <"$work/perfscript.got") lines)"
else
  echo "output: DIFFERS in $(diff "$work/perfscript.want" "$work/perfscript.got" | grep -c '^>') of $(wc -l <"$work/perfscript.got") lines"
fi
# 490 MB of comparison output were just written: let the writeback finish
# (and drop the files) so that it does not run during the timings
rm -f "$work/perfscript.want" "$work/perfscript.got"
sync
best() { # best of 3: "wall cpu"
  local b_wall=999999 b_cpu=999999
  for _ in 1 2 3; do
    /usr/bin/time -o "$work/t.txt" -f "%e %U %S" "$@" >/dev/null 2>/dev/null
    read -r wall user sys <"$work/t.txt"
    cpu=$(echo "$user + $sys" | bc)
    if [ "$(echo "$cpu < $b_cpu" | bc)" = 1 ]; then b_cpu=$cpu; fi
    if [ "$(echo "$wall < $b_wall" | bc)" = 1 ]; then b_wall=$wall; fi
  done
  echo "$b_wall $b_cpu"
}
# the tools take turns (best of 3, twice each) so that both see the same machine
min2() { echo "if ($1 < $2) $1 else $2" | bc; }
read -r tw tc < <(best "$TK" print --format perf-script "$data")
read -r pw pc < <(best perf script -i "$data")
read -r tw2 tc2 < <(best "$TK" print --format perf-script "$data")
read -r pw2 pc2 < <(best perf script -i "$data")
tw=$(min2 "$tw" "$tw2"); tc=$(min2 "$tc" "$tc2"); pw=$(min2 "$pw" "$pw2"); pc=$(min2 "$pc" "$pc2")
echo "tracekit print --format perf-script: wall ${tw}s cpu ${tc}s"
echo "perf script:                         wall ${pw}s cpu ${pc}s"
echo "speed-up: wall $(echo "scale=1; $pw / $tw" | bc)x, cpu $(echo "scale=1; $pc / $tc" | bc)x"
