#!/usr/bin/env bash
# CPEL: `tracekit print --format cpeldump` on a generated N-event file
# (default 2 M events). VPP's cpeldump is not installable here; when a
# `cpeldump` binary is on PATH it is timed on the same file too.
# Usage: bench/cpel_bench.sh [N] (TK = tracekit binary, default build/bin/tracekit)
set -eu
n=${1:-2000000}
here=$(cd "$(dirname "$0")" && pwd)
TK=${TK:-$here/../build/bin/tracekit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$here/cpel_gen.py" "$tmp/bench.cpel" "$n"
ls -l "$tmp/bench.cpel" | awk '{printf "input: %d events, %.1f MB\n", '"$n"', $5 / 1e6}'
"$TK" print --format cpeldump "$tmp/bench.cpel" >/dev/null # warm the page cache
best=
for i in 1 2 3; do
  /usr/bin/time -v "$TK" print --format cpeldump "$tmp/bench.cpel" >"$tmp/out" 2>"$tmp/time"
  s=$(awk -F': ' '/Elapsed \(wall clock\)/ {split($2, a, ":"); print a[1] * 60 + a[2]}' "$tmp/time")
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tmp/time")
  cpu=$(awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} END {print u + s}' "$tmp/time")
  echo "run $i: ${s}s wall, ${cpu}s CPU (user+sys), max RSS ${rss} KB"
  if [ -z "$best" ] || awk "BEGIN {exit !($s < $best)}"; then best=$s; best_rss=$rss; fi
  if [ -z "${best_cpu:-}" ] || awk "BEGIN {exit !($cpu < $best_cpu)}"; then best_cpu=$cpu; fi
done
lines=$(wc -l <"$tmp/out")
awk -v n="$n" -v s="$best" -v c="$best_cpu" -v r="$best_rss" -v l="$lines" \
  'BEGIN {printf "tracekit print --format cpeldump: %d lines, best %.2f s wall = %.2f M events/s, best %.2f s CPU = %.2f M events/s, max RSS %d KB (the mapped input counts)\n", l, s, n / s / 1e6, c, n / c / 1e6, r}'
if command -v cpeldump >/dev/null; then
  /usr/bin/time -f "%e %M" cpeldump --input-file "$tmp/bench.cpel" >"$tmp/ref" 2>"$tmp/rtime"
  read -r rs rm <"$tmp/rtime"
  cmp -s "$tmp/ref" "$tmp/out" && same=identical || same=DIFFERENT
  awk -v n="$n" -v s="$rs" -v m="$rm" -v t="$best" -v q="$same" \
    'BEGIN {printf "cpeldump: %.2f s = %.2f M events/s, max RSS %d KB; ratio %.1fx; output %s\n", s, n / s / 1e6, m, s / t, q}'
fi
