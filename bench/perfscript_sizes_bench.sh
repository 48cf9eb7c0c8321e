#!/usr/bin/env bash
# perf script at three sizes: `tracekit print --format perf-script` against
# `perf script` on ~1 MB, ~8 MB and ~50 MB `perf record -F 10000 -g -a`
# recordings of one fixed workload (examples/workload.c plus a file walk
# that takes many kernel paths and images). For each size: the outputs are
# checked identical (cmp), then hyperfine times, in one run, perf script,
# tracekit with a cold symbol cache (emptied before every run), with a warm
# one, with the cache off, perf script's start-up, tracekit cold with
# TRACEKIT_THREADS=0 (no background threads), warm and cold with one lane
# (TRACEKIT_LANES=1: no second printer), and tracekit cold without
# perf's build-id cache copy of kallsyms (TRACEKIT_NO_KALLSYMS_COPY=1:
# /proc/kallsyms read whole, as on a machine where perf record never ran);
# best (min) of several runs each is reported,
# with the load average, since the machine is shared.
# Usage: bench/perfscript_sizes_bench.sh [SIZES_MB...]   (default: 1 8 50)
# Needs perf and hyperfine; run `make` first. TK=path/to/tracekit.
set -euo pipefail
cd "$(dirname "$0")/.."
TK=${TK:-build/bin/tracekit}
TK=$(realpath "$TK")
RUNS=${RUNS:-10}
work=bench/work
mkdir -p "$work"
# the bench's own symbol cache, never the user's
cache_root=$(realpath "$work")/symcache-xdg
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1 8 50)

workload() { # one round of the fixed workload
  "$work/workload" 1 >/dev/null &
  find /usr/lib /usr/share/doc -maxdepth 3 -type f 2>/dev/null | head -60 |
    xargs -r md5sum >/dev/null 2>&1
  wait
}

record() { # record SIZE_MB FILE
  local mb=$1 data=$2
  [ -x "$work/workload" ] ||
    cc -O1 -g -fno-omit-frame-pointer -o "$work/workload" examples/workload.c
  # -a records the whole machine: the workload runs beside perf, which
  # stops once its file has reached the size (checked every 20 ms)
  (while :; do workload; done) &
  local loop=$!
  perf record -q -F 10000 -g -a -o "$data" -- bash -c "
    while [ \$(stat -c %s '$data' 2>/dev/null || echo 0) -lt $((mb * 1000000)) ]; do
      sleep 0.02; done" >/dev/null 2>&1
  # the loop may be gone already; under set -e a failed kill ended the script
  kill "$loop" 2>/dev/null || true
  wait "$loop" 2>/dev/null || true
}

min_of() { # min_of JSON INDEX: best wall, mean wall, mean CPU (user+sys), seconds
  /usr/bin/python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]; print("%.4f %.4f %.4f" % (min(r["times"]), r["mean"], r["user"] + r["system"]))' "$1" "$2"
}

echo "tracekit: $TK ($(git -C "$(dirname "$0")/.." rev-parse --short HEAD))"
echo "date: $(date -u +%FT%TZ)"
# perf script's start-up: a recording of `true` (a few samples)
tiny=$work/perfscript-sizes-tiny.data
[ -s "$tiny" ] || perf record -q -o "$tiny" -- true >/dev/null 2>&1
status=0
for mb in "${sizes[@]}"; do
  data=$work/perfscript-sizes-${mb}mb.data
  [ -s "$data" ] || record "$mb" "$data"
  echo "== ~${mb} MB: $data ($(stat -L -c %s "$data") bytes)"
  perf script -i "$data" >"$work/sizes.want" 2>"$work/sizes.perr" ||
    { echo "perf script -i $data failed (status $?):"; tail -3 "$work/sizes.perr"; exit 1; }
  rm -rf "$cache_root"
  XDG_CACHE_HOME=$cache_root "$TK" print --format perf-script "$data" >"$work/sizes.cold"
  XDG_CACHE_HOME=$cache_root "$TK" print --format perf-script "$data" >"$work/sizes.warm"
  for k in cold warm; do
    if cmp -s "$work/sizes.want" "$work/sizes.$k"; then
      echo "output ($k cache): identical ($(wc -l <"$work/sizes.$k") lines)"
    else
      echo "output ($k cache): DIFFERS in $(diff "$work/sizes.want" "$work/sizes.$k" | grep -c '^>') of $(wc -l <"$work/sizes.$k") lines:"
      diff "$work/sizes.want" "$work/sizes.$k" | head -4 | cut -c1-200
      status=1
    fi
  done
  rm -f "$work/sizes.want" "$work/sizes.cold" "$work/sizes.warm"
  sync
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  hyperfine -N -w 2 -r "$RUNS" --export-json "$work/sizes.json" \
    --prepare true --prepare "rm -rf $cache_root" --prepare true --prepare true --prepare true \
    --prepare "rm -rf $cache_root" --prepare "rm -rf $cache_root" --prepare true \
    --prepare "rm -rf $cache_root" \
    -n "perf script" "perf script -i $data" \
    -n "tracekit cold" \
    "env XDG_CACHE_HOME=$cache_root $TK print --format perf-script $data" \
    -n "tracekit warm" \
    "env XDG_CACHE_HOME=$cache_root $TK print --format perf-script $data" \
    -n "tracekit no cache" \
    "env TRACEKIT_NO_SYMCACHE=1 $TK print --format perf-script $data" \
    -n "perf script start-up" "perf script -i $tiny" \
    -n "tracekit cold, one thread" \
    "env TRACEKIT_THREADS=0 XDG_CACHE_HOME=$cache_root $TK print --format perf-script $data" \
    -n "tracekit cold, no perf build-id cache" \
    "env TRACEKIT_NO_KALLSYMS_COPY=1 XDG_CACHE_HOME=$cache_root $TK print --format perf-script $data" \
    -n "tracekit warm, one lane" \
    "env TRACEKIT_LANES=1 XDG_CACHE_HOME=$cache_root $TK print --format perf-script $data" \
    -n "tracekit cold, one lane" \
    "env TRACEKIT_LANES=1 XDG_CACHE_HOME=$cache_root $TK print --format perf-script $data" \
    >/dev/null 2>&1 </dev/null
  echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
  read -r p pm pc < <(min_of "$work/sizes.json" 0)
  read -r c cm cc < <(min_of "$work/sizes.json" 1)
  read -r w wm wc < <(min_of "$work/sizes.json" 2)
  read -r n nm nc < <(min_of "$work/sizes.json" 3)
  read -r s sm sc < <(min_of "$work/sizes.json" 4)
  read -r o om oc < <(min_of "$work/sizes.json" 5)
  read -r b bm bc < <(min_of "$work/sizes.json" 6)
  read -r l lm lc < <(min_of "$work/sizes.json" 7)
  read -r k km kc < <(min_of "$work/sizes.json" 8)
  printf '%-38s best %8.4f s  mean %8.4f s  CPU mean %8.4f s\n' "perf script" "$p" "$pm" "$pc" \
    "tracekit, cold cache" "$c" "$cm" "$cc" \
    "tracekit, cold, no perf build-id cache" "$b" "$bm" "$bc" "tracekit, warm cache" "$w" "$wm" "$wc" \
    "tracekit, cache off" "$n" "$nm" "$nc" "perf script start-up" "$s" "$sm" "$sc" \
    "tracekit, cold, one thread" "$o" "$om" "$oc" "tracekit, warm, one lane" "$l" "$lm" "$lc" \
    "tracekit, cold, one lane" "$k" "$km" "$kc"
  echo "speed-up, best wall: cold $(echo "scale=1; $p / $c" | bc)x (one lane $(echo "scale=1; $p / $k" | bc)x), cold no build-id cache $(echo "scale=1; $p / $b" | bc)x, warm $(echo "scale=1; $p / $w" | bc)x (one lane $(echo "scale=1; $p / $l" | bc)x), off $(echo "scale=1; $p / $n" | bc)x, cold one thread $(echo "scale=1; $p / $o" | bc)x"
  echo "speed-up, mean CPU:  cold $(echo "scale=1; $pc / $cc" | bc)x, cold no build-id cache $(echo "scale=1; $pc / $bc" | bc)x, warm $(echo "scale=1; $pc / $wc" | bc)x, off $(echo "scale=1; $pc / $nc" | bc)x"
  echo "vs perf script start-up (best wall): cold $(echo "scale=2; $s / $c" | bc)x, warm $(echo "scale=2; $s / $w" | bc)x"
done
exit $status
