#!/usr/bin/env bash
# Profile exports: wall time of `tracekit convert` to pprof, speedscope,
# the flame graph SVG and folded stacks on one perf.data, with `tracekit
# report` and `perf report --stdio` (same file, symbols resolved alike) as
# the reference cost of reading and symbolizing it; output sizes too.
# Usage: bench/profile_exports_bench.sh [perf.data] (default: a fresh
# `perf record -a -g -- sleep 5`). Median of 5 runs.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
TK=${TK:-$here/build/bin/tracekit}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
in=${1:-}
if [ -z "$in" ]; then
  in=$work/in.data
  perf record -q -a -g -o "$in" -- sleep 5 >/dev/null 2>&1
fi
median() { # command...
  local t=()
  for _ in 1 2 3 4 5; do
    local s e
    s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N)
    t+=("$(echo "$e - $s" | bc)")
  done
  printf "%s\n" "${t[@]}" | sort -n | sed -n 3p | xargs printf "%.3f"
}
echo "input: $in ($(stat -c %s "$in") bytes, $("$TK" report -q "$in" | sed -n 3p | awk '{print $(NF-1)}') samples)"
printf '%-38s %8s %10s\n' command "median s" "out bytes"
for o in x.pb.gz x.speedscope.json x.svg x.folded; do
  printf '%-38s %8s %10s\n' "tracekit convert -o $o" "$(median "$TK" convert -q "$in" -o "$work/$o")" "$(stat -c %s "$work/$o")"
done
printf '%-38s %8s\n' "tracekit report" "$(median "$TK" report -q "$in")"
if command -v perf >/dev/null; then
  printf '%-38s %8s\n' "perf report --stdio -g none" "$(median perf report -i "$in" --stdio --no-children -g none --sort sym)"
fi
