#!/usr/bin/env bash
# Oracle: on recordings made here with perf (plain; -g; dwarf; -z; a :S
# group; two events with -c; -a --sample-cpu -d; tracepoints; pipe mode;
# pipe mode with -z), the samples of `tracekit print --format json` equal
# `perf script -F pid,tid,time,ip,period --ns -G`, sample for sample, in
# the same order. Skipped (exit 77, with the reason) where perf cannot record.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}"
if ! command -v perf >/dev/null; then echo "SKIP: perf is not installed"; exit 77; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O1 -g -fno-omit-frame-pointer -o "$work/workload" "$TK_SOURCE_DIR/examples/workload.c" || exit 1
if ! perf record -q -o "$work/probe.data" -- true >/dev/null 2>"$work/probe.err"; then
  echo "SKIP: perf cannot record here: $(head -1 "$work/probe.err")"; exit 77
fi
norm="python3 $TK_SOURCE_DIR/tests/support/samples_from.py"
failed=0; checked=0

# check NAME PIPE(0|1) PERF-RECORD-ARGS... -- CMD...
check() {
  local name=$1 pipe=$2; shift 2
  local data="$work/$name.data"
  if [ "$pipe" = 1 ]; then
    perf record -q -o - "$@" 2>"$work/$name.rec.err" >"$data"
  else
    perf record -q -o "$data" "$@" >/dev/null 2>"$work/$name.rec.err"
  fi
  if [ $? -ne 0 ] || [ ! -s "$data" ]; then
    echo "SKIP $name: perf record failed: $(grep -v '^\[' "$work/$name.rec.err" | head -1)"
    return
  fi
  perf script -i "$data" -F pid,tid,time,ip,period --ns -G 2>/dev/null | $norm script >"$work/$name.want" || {
    echo "FAIL $name: cannot normalise perf script output"; failed=$((failed+1)); return; }
  if ! "$TK" print --format json "$data" >"$work/$name.json" 2>"$work/$name.err"; then
    echo "FAIL $name: tracekit exited non-zero: $(head -3 "$work/$name.err")"; failed=$((failed+1)); return
  fi
  $norm json <"$work/$name.json" >"$work/$name.got"
  local n; n=$(wc -l <"$work/$name.want")
  if [ "$n" -eq 0 ]; then echo "SKIP $name: perf script printed no samples"; return; fi
  if cmp -s "$work/$name.want" "$work/$name.got"; then
    echo "ok   $name: $n samples identical"; checked=$((checked+1))
  else
    echo "FAIL $name: samples differ from perf script ($n expected, $(wc -l <"$work/$name.got") got)"
    diff "$work/$name.want" "$work/$name.got" | head -10
    failed=$((failed+1))
  fi
}

W="$work/workload"
check plain     0 -F 2000 -- "$W" 2
check callgraph 0 -F 2000 -g -- "$W" 2
check dwarf     0 -F 500 --call-graph dwarf,4096 -- "$W" 1
check zstd      0 -F 2000 -z -- "$W" 2
check group_S   0 -e '{cpu-clock,page-faults}:S' -- "$W" 2
check two_c     0 -e cpu-clock,page-faults -c 20000 -- "$W" 2
check syswide   0 -a --sample-cpu -d -F 1000 -- "$W" 2
check tracepts  0 -e sched:sched_switch -e sched:sched_wakeup -a -- "$W" 2
check pipe      1 -F 2000 -g -- "$W" 2
check pipe_zstd 1 -F 2000 -z -- "$W" 2

echo "$checked recordings identical, $failed failed"
[ "$failed" -eq 0 ] && [ "$checked" -gt 0 ]
