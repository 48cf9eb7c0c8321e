#!/usr/bin/env bash
# perf.data benchmark: tracekit against perf on the same ~100 MB recording
# (perf record -F 15000 -g -a), in one run, so the figures are ratios.
#   stats:  tracekit stats           vs perf report --stats
#   print:  tracekit print -f json   vs perf script -F comm,pid,tid,cpu,time,event,ip,period
#           and vs perf script -F comm,pid,tid,cpu,time,event,ip,sym,dso,period (the
#           same content: since issue 19 the JSON lines carry comm and symbolized frames)
#   memory: peak RSS of tracekit print (/usr/bin/time -v)
# Usage: bench/perf_bench.sh [SIZE_MB]   (needs perf, hyperfine; run `make` first)
set -euo pipefail
cd "$(dirname "$0")/.."
TK=${TK:-build/bin/tracekit}
size_mb=${1:-100}
work=bench/work
mkdir -p "$work"
data=$work/perf-${size_mb}mb.data
if [ ! -s "$data" ]; then
  cc -O1 -g -fno-omit-frame-pointer -o "$work/workload" examples/workload.c
  # Record system-wide with call graphs until the file reaches the size.
  perf record -q -F 15000 -g -a -o "$data" -- sh -c "
    while [ \$(stat -c %s $data 2>/dev/null || echo 0) -lt $((size_mb * 1000000)) ]; do
      $work/workload 2 >/dev/null & $work/workload 2 >/dev/null; wait; done" >/dev/null 2>&1
fi
echo "input: $data ($(du -m "$data" | cut -f1) MB, $(perf report -i "$data" --stats 2>/dev/null | awk '/SAMPLE events/ {print $3; exit}') samples)"
hyperfine --warmup 1 --runs 3 --export-markdown "$work/perf-stats.md" \
  -n "tracekit stats" "$TK stats $data" \
  -n "perf report --stats" "perf report --stats -i $data"
hyperfine --warmup 1 --runs 3 --export-markdown "$work/perf-print.md" \
  -n "tracekit print --format json" "$TK print --format json $data" \
  -n "perf script -F comm,pid,tid,cpu,time,event,ip,period" \
     "perf script -F comm,pid,tid,cpu,time,event,ip,period -i $data" \
  -n "perf script -F comm,pid,tid,cpu,time,event,ip,sym,dso,period" \
     "perf script -F comm,pid,tid,cpu,time,event,ip,sym,dso,period -i $data"
peak() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk '/Maximum resident/ {print $6}'; }
echo "peak RSS tracekit print --format json: $(peak "$TK" print --format json "$data") KiB"
echo "peak RSS perf script:                  $(peak perf script -F comm,pid,tid,cpu,time,event,ip,period -i "$data") KiB"
cat "$work/perf-stats.md" "$work/perf-print.md"
