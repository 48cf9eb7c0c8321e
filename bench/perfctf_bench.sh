#!/usr/bin/env bash
# perf -> CTF benchmark: `tracekit convert REC -o OUT --to ctf` against
# perf's own `perf data convert --to-ctf` on the same ~100 MB
# `perf record -g -a` recording, in one run: wall and CPU (user+sys) time
# and peak RSS of each (/usr/bin/time), best of 3 for tracekit, one run of
# perf (it takes ~30 s). With CHECK=1 it also checks that babeltrace2 prints
# the same text for both traces (md5 of the text; slow).
# Usage: bench/perfctf_bench.sh [SIZE_MB] [--all]   (needs perf; `make` first)
set -euo pipefail
cd "$(dirname "$0")/.."
TK=${TK:-build/bin/tracekit}
size_mb=${1:-100}
all=${2:-}
work=bench/work
mkdir -p "$work"
data=$work/perfctf-${size_mb}mb.data
if [ ! -s "$data" ]; then
  cc -O1 -g -fno-omit-frame-pointer -o "$work/workload" examples/workload.c
  perf record -q -F 15000 -g -a -o "$data" -- sh -c "
    while [ \$(stat -c %s $data 2>/dev/null || echo 0) -lt $((size_mb * 1000000)) ]; do
      $work/workload 2 >/dev/null & $work/workload 2 >/dev/null; wait; done" >/dev/null 2>&1
fi
echo "input: $data ($(du -m "$data" | cut -f1) MB) ${all}"
# run NAME CMD...: "wall cpu maxrss_mb" of one run, output dir removed first
run() {
  rm -rf "$work/ctf-$1"
  shift
  /usr/bin/time -o "$work/t.txt" -f "%e %U %S %M" "$@" >/dev/null 2>&1
  read -r wall user sys rss <"$work/t.txt"
  echo "$wall $(echo "$user + $sys" | bc) $((rss / 1024))"
}
best_wall=999999 best_cpu=999999 tk_rss=0
for _ in 1 2 3; do
  read -r w c r < <(run tk "$TK" convert "$data" -o "$work/ctf-tk" --to ctf $all)
  if [ "$(echo "$w < $best_wall" | bc)" = 1 ]; then best_wall=$w; fi
  if [ "$(echo "$c < $best_cpu" | bc)" = 1 ]; then best_cpu=$c; fi
  tk_rss=$r
done
read -r pw pc prss < <(run perf perf data convert --to-ctf="$work/ctf-perf" -i "$data" $all)
if [ "${CHECK:-0}" = 1 ]; then
  a=$(babeltrace2 "$work/ctf-tk" 2>&1 | md5sum | cut -c1-32)
  b=$(babeltrace2 "$work/ctf-perf" 2>&1 | md5sum | cut -c1-32)
  [ "$a" = "$b" ] && echo "babeltrace2 text: identical ($a)" || echo "babeltrace2 text: DIFFERS ($a vs $b)"
fi
printf '| | wall | CPU (user+sys) | peak RSS |\n|---|---|---|---|\n'
printf '| tracekit convert --to ctf %s | %s s | %s s | %s MB |\n' "$all" "$best_wall" "$best_cpu" "$tk_rss"
printf '| perf data convert --to-ctf %s | %s s | %s s | %s MB |\n' "$all" "$pw" "$pc" "$prss"
printf '| ratio | %.1fx | %.1fx | 1/%.0f |\n' "$(echo "$pw / $best_wall" | bc -l)" \
  "$(echo "$pc / $best_cpu" | bc -l)" "$(echo "$prss / $tk_rss" | bc -l)"
rm -rf "$work/ctf-tk" "$work/ctf-perf"
