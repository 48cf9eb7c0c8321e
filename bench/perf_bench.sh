#!/usr/bin/env bash
# perf.data benchmark: tracekit against perf on the same recording
# (perf record -F 15000 -g -a), in one script, best of RUNS runs each, ratios
# printed:
#   stats:  tracekit stats vs perf report --stats; also tracekit stats
#           forced through the full path (TRACEKIT_STATS_FULL=1: every record
#           through the session) to show what the lean scan saves
#   json:   tracekit print --format json (comm and symbolized frames: ip,
#           symbol, sym_off, dso, dso_off per frame) vs the perf script -F
#           command printing the same content,
#           comm,pid,tid,cpu,time,event,ip,sym,symoff,dso,period; and vs the
#           hex-only -F comm,pid,tid,cpu,time,event,ip,period the first
#           figures used (tracekit's JSON said less then). tracekit runs both
#           with a cold symbol cache (emptied before every run: what perf
#           script, which has none, is compared with) and a warm one.
#   memory: peak RSS (/usr/bin/time) of each command, once.
# The symbol cache lives in bench/work/symcache-xdg-perf, never ~/.cache.
# Usage: bench/perf_bench.sh [SIZE_MB]   (default 100; needs perf, hyperfine;
# run `make` first). DATA=file uses an existing recording instead (e.g.
# bench/work/perfscript-sizes-50mb.data), RUNS=n the runs per command (10),
# STATS_ONLY=1 the stats commands alone (and their peak RSS).
set -euo pipefail
cd "$(dirname "$0")/.."
TK=${TK:-build/bin/tracekit}
TK=$(realpath "$TK")
RUNS=${RUNS:-10}
size_mb=${1:-100}
work=bench/work
mkdir -p "$work"
cache_root=$(realpath "$work")/symcache-xdg-perf
data=${DATA:-$work/perf-${size_mb}mb.data}
if [ ! -s "$data" ]; then
  cc -O1 -g -fno-omit-frame-pointer -o "$work/workload" examples/workload.c
  # Record system-wide with call graphs until the file reaches the size.
  perf record -q -F 15000 -g -a -o "$data" -- sh -c "
    while [ \$(stat -c %s $data 2>/dev/null || echo 0) -lt $((size_mb * 1000000)) ]; do
      $work/workload 2 >/dev/null & $work/workload 2 >/dev/null; wait; done" >/dev/null 2>&1
fi
fields_same=comm,pid,tid,cpu,time,event,ip,sym,symoff,dso,period
fields_hex=comm,pid,tid,cpu,time,event,ip,period
echo "tracekit: $TK ($(git rev-parse --short HEAD 2>/dev/null || echo '?'))"
echo "date: $(date -u +%FT%TZ)"
echo "input: $data ($(stat -L -c %s "$data") bytes, $(perf report -i "$data" --stats 2>/dev/null | awk '/SAMPLE events/ {print $3; exit}') samples)"

# best wall, mean wall, mean CPU (user+sys) of result INDEX, in seconds
stat_of() {
  /usr/bin/python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]; print("%.4f %.4f %.4f" % (min(r["times"]), r["mean"], r["user"] + r["system"]))' "$1" "$2"
}
ratio() { echo "scale=2; $1 / $2" | bc; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
hyperfine -N -w 2 -r "$RUNS" --export-json "$work/perf-stats.json" \
  -n "tracekit stats" "$TK stats $data" \
  -n "perf report --stats" "perf report --stats -i $data" \
  -n "tracekit stats, full path" "env TRACEKIT_STATS_FULL=1 $TK stats $data" \
  >/dev/null 2>&1 </dev/null
if [ -n "${STATS_ONLY:-}" ]; then
  echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
  read -r ts tsm tsc < <(stat_of "$work/perf-stats.json" 0)
  read -r ps psm psc < <(stat_of "$work/perf-stats.json" 1)
  read -r tf tfm tfc < <(stat_of "$work/perf-stats.json" 2)
  printf '%-44s best %8.4f s  mean %8.4f s  CPU mean %8.4f s\n' \
    "tracekit stats" "$ts" "$tsm" "$tsc" "perf report --stats" "$ps" "$psm" "$psc" \
    "tracekit stats, full path" "$tf" "$tfm" "$tfc"
  echo "stats vs perf report --stats:  best wall $(ratio "$ps" "$ts")x, mean CPU $(ratio "$psc" "$tsc")x"
  echo "stats lean scan vs full path:  best wall $(ratio "$tf" "$ts")x, mean CPU $(ratio "$tfc" "$tsc")x"
  echo "peak RSS (KiB): tracekit stats $(/usr/bin/time -f '%M' "$TK" stats "$data" 2>&1 >/dev/null | tail -1)," \
    "perf report --stats $(/usr/bin/time -f '%M' perf report --stats -i "$data" 2>&1 >/dev/null | tail -1)"
  exit 0
fi
# hyperfine takes --prepare per command, in order
hyperfine -N -w 2 -r "$RUNS" --export-json "$work/perf-print.json" \
  --prepare "rm -rf $cache_root" --prepare true --prepare true --prepare true \
  -n "tracekit json, cold cache" \
  "env XDG_CACHE_HOME=$cache_root $TK print --format json $data" \
  -n "tracekit json, warm cache" \
  "env XDG_CACHE_HOME=$cache_root $TK print --format json $data" \
  -n "perf script -F $fields_same" "perf script -F $fields_same -i $data" \
  -n "perf script -F $fields_hex" "perf script -F $fields_hex -i $data" \
  >/dev/null 2>&1 </dev/null
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
read -r ts tsm tsc < <(stat_of "$work/perf-stats.json" 0)
read -r ps psm psc < <(stat_of "$work/perf-stats.json" 1)
read -r tf tfm tfc < <(stat_of "$work/perf-stats.json" 2)
read -r jc jcm jcc < <(stat_of "$work/perf-print.json" 0)
read -r jw jwm jwc < <(stat_of "$work/perf-print.json" 1)
read -r pf pfm pfc < <(stat_of "$work/perf-print.json" 2)
read -r ph phm phc < <(stat_of "$work/perf-print.json" 3)
printf '%-44s best %8.4f s  mean %8.4f s  CPU mean %8.4f s\n' \
  "tracekit stats" "$ts" "$tsm" "$tsc" "perf report --stats" "$ps" "$psm" "$psc" \
  "tracekit stats, full path" "$tf" "$tfm" "$tfc" \
  "tracekit print --format json, cold cache" "$jc" "$jcm" "$jcc" \
  "tracekit print --format json, warm cache" "$jw" "$jwm" "$jwc" \
  "perf script -F ...,ip,sym,symoff,dso,period" "$pf" "$pfm" "$pfc" \
  "perf script -F ...,ip,period (hex only)" "$ph" "$phm" "$phc"
echo "stats vs perf report --stats:  best wall $(ratio "$ps" "$ts")x, mean CPU $(ratio "$psc" "$tsc")x"
echo "stats lean scan vs full path:  best wall $(ratio "$tf" "$ts")x, mean CPU $(ratio "$tfc" "$tsc")x"
echo "json (cold) vs perf script, same content:  best wall $(ratio "$pf" "$jc")x, mean CPU $(ratio "$pfc" "$jcc")x"
echo "json (warm) vs perf script, same content:  best wall $(ratio "$pf" "$jw")x, mean CPU $(ratio "$pfc" "$jwc")x"
echo "json (cold) vs perf script, hex only:      best wall $(ratio "$ph" "$jc")x, mean CPU $(ratio "$phc" "$jcc")x"

peak() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1; }
rm -rf "$cache_root"
xdg="env XDG_CACHE_HOME=$cache_root"
echo "peak RSS (KiB): tracekit json cold $(peak $xdg "$TK" print --format json "$data")," \
  "warm $(peak $xdg "$TK" print --format json "$data");" \
  "tracekit perf-script warm $(peak $xdg "$TK" print --format perf-script "$data");" \
  "tracekit stats $(peak "$TK" stats "$data");" \
  "perf script -F ...sym... $(peak perf script -F $fields_same -i "$data");" \
  "perf report --stats $(peak perf report --stats -i "$data")"
