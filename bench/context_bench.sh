#!/usr/bin/env bash
# Model context benchmark (issue 12): on one `perf record -g -a` recording
# (SIZE_MB, default 20) and one `perf record -e sched:sched_switch -e
# sched:sched_wakeup -a` recording, best of 3 CPU time (user+sys) and peak
# RSS (/usr/bin/time) of:
#   tracekit convert --to json   (names + symbolized call chains)
#   perf data convert --to-json  (the reference: the same, one run)
#   tracekit convert --to chrome (names, stack frames, spans)
# With TK_BEFORE=path/to/older/tracekit, the same tracekit commands with it
# in the same run (the cost of the context; the older one writes hex frames).
# Usage: bench/context_bench.sh [SIZE_MB]   (needs perf; `make` first)
set -euo pipefail
cd "$(dirname "$0")/.."
TK=${TK:-build/bin/tracekit}
size_mb=${1:-20}
work=bench/work
mkdir -p "$work"
g=$work/context-g-${size_mb}mb.data
s=$work/context-sched.data
if [ ! -s "$g" ]; then
  cc -O1 -g -fno-omit-frame-pointer -o "$work/workload" examples/workload.c
  perf record -q -F 5000 -g -a -o "$g" -- sh -c "
    while [ \$(stat -c %s $g 2>/dev/null || echo 0) -lt $((size_mb * 1000000)) ]; do
      $work/workload 2 >/dev/null & $work/workload 2 >/dev/null; wait; done" >/dev/null 2>&1
fi
if [ ! -s "$s" ]; then
  perf record -q -e sched:sched_switch -e sched:sched_wakeup -a -o "$s" -- \
    sh -c "$work/workload 2 >/dev/null & $work/workload 2 >/dev/null; wait" >/dev/null 2>&1
fi
# best NAME CMD...: "cpu_s maxrss_mb" best of 3 (by CPU)
best() {
  local b=999999 r=0
  for _ in 1 2 3; do
    rm -rf "$work/ctx-out"
    /usr/bin/time -o "$work/t.txt" -f "%U %S %M" "$@" >/dev/null 2>&1
    read -r user sys rss <"$work/t.txt"
    c=$(echo "$user + $sys" | bc)
    if [ "$(echo "$c < $b" | bc)" = 1 ]; then b=$c; r=$((rss / 1024)); fi
  done
  echo "$b $r"
}
row() { printf '%-44s %8s s %6s MB\n' "$1" "$2" "$3"; }
echo "inputs: $g ($(du -m "$g" | cut -f1) MB, $(perf report -i "$g" --stats 2>/dev/null | awk '/SAMPLE events/ {print $3; exit}') samples), $s ($(du -m "$s" | cut -f1) MB)"
for bin in "$TK" ${TK_BEFORE:+"$TK_BEFORE"}; do
  read -r c r < <(best "$bin" convert "$g" --to json -o "$work/ctx-out"); row "$bin -g --to json" "$c" "$r"
  read -r c r < <(best "$bin" convert "$g" --to chrome -o "$work/ctx-out"); row "$bin -g --to chrome" "$c" "$r"
  read -r c r < <(best "$bin" convert "$s" --to chrome -o "$work/ctx-out"); row "$bin sched --to chrome" "$c" "$r"
done
rm -f "$work/ctx-perf.json"
/usr/bin/time -o "$work/t.txt" -f "%U %S %M" perf data convert -i "$g" --to-json "$work/ctx-perf.json" >/dev/null 2>&1
read -r user sys rss <"$work/t.txt"
row "perf data convert --to-json (1 run)" "$(echo "$user + $sys" | bc)" "$((rss / 1024))"
rm -rf "$work/ctx-out" "$work/ctx-perf.json"
