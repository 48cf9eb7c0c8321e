#!/usr/bin/env bash
# Oracle for the perf.data model sink: other formats -> perf.data, then
# `perf script` must print every event (one line per event written, no
# libtraceevent parse error) with its field values. Inputs: the CPEL files
# (vpp-new.cpel, vpp-small.cpel), every CTF trace of the shared test data
# (babeltrace succeed traces, barectf traces), and, when LTTng can trace
# here, a live LTTng-UST trace (tests/ctf/tk_app) whose procname/vtid
# context must show up as perf's comm/tid. The converter is test_perfw_copy
# ("sink IN OUT", the library call the CLI's convert uses).
set -u
: "${TK_BUILD_DIR:?}" "${TK_SOURCE_DIR:?}" "${TK_TESTDATA:?}"
command -v perf >/dev/null || { echo "SKIP: perf is not installed"; exit 77; }
tool="$TK_BUILD_DIR/bin/test_perfw_copy"
[ -x "$tool" ] || { echo "SKIP: $tool is not built"; exit 77; }
work=$(mktemp -d)
session="tk-perfw-$$"
started_pid=
cleanup() {
  lttng destroy "$session" >/dev/null 2>&1
  [ -n "$started_pid" ] && kill "$started_pid" 2>/dev/null && wait "$started_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
failed=0; checked=0

# check NAME INPUT [GREP-PATTERN COUNT]
check() {
  local name=$1 in=$2 out="$work/x.data" n m
  checked=$((checked+1))
  if ! n=$("$tool" sink "$in" "$out" 2>"$work/sink.err"); then
    echo "FAIL $name: conversion failed: $(tail -1 "$work/sink.err")"; failed=$((failed+1)); return
  fi
  perf script -i "$out" >"$work/script.out" 2>"$work/script.err"
  m=$(wc -l <"$work/script.out")
  if [ "$n" != "$m" ]; then
    echo "FAIL $name: $n events written, perf script printed $m lines"; failed=$((failed+1)); return
  fi
  if grep -qi "error\|libtraceevent\|unknown" "$work/script.err"; then
    echo "FAIL $name: perf script complains: $(grep -i "error\|libtraceevent\|unknown" "$work/script.err" | head -2)"
    failed=$((failed+1)); return
  fi
  if [ $# -ge 4 ] && [ "$(grep -c -- "$3" "$work/script.out")" != "$4" ]; then
    echo "FAIL $name: expected $4 lines matching '$3'"; head -3 "$work/script.out"; failed=$((failed+1)); return
  fi
  [ -n "${VERBOSE:-}" ] && echo "ok   $name ($n events)"
}

check vpp-new "$TK_TESTDATA/cpel/vpp-new.cpel" ' tracekit:' 67
check vpp-small "$TK_TESTDATA/cpel/vpp-small.cpel"
check wk-heartbeat-u "$TK_TESTDATA/ctf/babeltrace/succeed/wk-heartbeat-u" 'tracekit:heartbeat_msg: vtid=[0-9]* vpid=3208 msg=heartbeat$' 20
check barectf-float "$TK_TESTDATA/ctf/barectf/basic_real_float" 'tracekit:ev: r=3.14159$' 1
n_ctf=0
for d in "$TK_TESTDATA"/ctf/babeltrace/succeed/* "$TK_TESTDATA"/ctf/barectf/*; do
  [ -d "$d" ] || continue
  # empty traces make perf warn about an empty data section: nothing to print
  n=$("$tool" sink "$d" "$work/y.data" 2>/dev/null) || n=0
  [ "$n" = 0 ] && continue
  check "ctf/$(basename "$d")" "$d"
  n_ctf=$((n_ctf+1))
done
echo "$n_ctf non-empty CTF traces converted"

# a live LTTng-UST trace, when this machine can make one
lttng_trace() {
  for t in lttng lttng-sessiond cc; do command -v $t >/dev/null || { echo "lttng part skipped: no $t"; return; }; done
  local src="$TK_SOURCE_DIR/tests/ctf"
  cc -O1 -I"$src" -o "$work/tk_app" "$src/tk_app.c" "$src/tk_tp.c" -llttng-ust -ldl -lpthread \
    >"$work/cc.log" 2>&1 || { echo "lttng part skipped: cannot build the provider"; return; }
  if ! lttng list >/dev/null 2>&1; then
    lttng-sessiond >"$work/sessiond.log" 2>&1 &
    started_pid=$!
    local i=0
    until lttng list >/dev/null 2>&1; do
      i=$((i+1)); [ $i -gt 50 ] && { echo "lttng part skipped: no session daemon"; return; }
      sleep 0.2
    done
  fi
  lttng create "$session" --output="$work/trace" >"$work/lttng.log" 2>&1 || { echo "lttng part skipped: create failed"; return; }
  lttng enable-event --session="$session" -u 'tk_test:*' >>"$work/lttng.log" 2>&1
  lttng add-context --session="$session" -u -t vpid -t vtid -t procname >>"$work/lttng.log" 2>&1
  lttng start "$session" >>"$work/lttng.log" 2>&1 || { echo "lttng part skipped: start failed"; return; }
  "$work/tk_app" 300 3
  lttng stop "$session" >>"$work/lttng.log" 2>&1
  lttng destroy "$session" >>"$work/lttng.log" 2>&1
  [ -d "$work/trace" ] || { echo "lttng part skipped: no trace written"; return; }
  local total=900 # 300 events x 3 threads
  check lttng "$work/trace" '^ *tk_app  *[0-9]* .* tracekit:tk_test_sample: ' $total
}
lttng_trace

echo "$checked checks, $failed failed"
[ "$failed" -eq 0 ]
