#!/usr/bin/env bash
# Oracle for the model context on perf recordings made here (issue 12):
# - `perf record -e sched:sched_switch -a` running a workload that execs:
#   the thread table per sample (JSON lines' comm, pid, tid) equals `perf
#   script -F comm,pid,tid`; Chrome JSON names every thread as perf last
#   names it and has X events; the running slices sum, per cpu, to the span
#   between its first and last switch minus the idle task's time;
# - `perf record -g`: the JSON lines' symbolized frames (symbol, dso) equal
#   `perf script -F ip,sym,dso`, frame for frame.
# Parsed with /usr/bin/python3 (tests/support/context_check.py). Skipped
# (exit 77) where perf cannot record.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}"
py=/usr/bin/python3
[ -x "$py" ] || { echo "SKIP: no $py"; exit 77; }
command -v perf >/dev/null || { echo "SKIP: perf is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
check="$py $TK_SOURCE_DIR/tests/support/context_check.py"
failed=0

if ! perf record -q -e sched:sched_switch -a -o "$work/s.data" -- \
     sh -c 'ls / >/dev/null; sleep 0.05; cat /dev/null; sleep 0.05' >/dev/null 2>"$work/rec.err"; then
  echo "SKIP: perf cannot record sched:sched_switch -a here: $(grep -v '^\[' "$work/rec.err" | head -1)"
  exit 77
fi
run() { # NAME CMD...: runs a check, counts a failure
  local name=$1; shift
  if out=$("$@" 2>&1); then echo "ok $name: $out"; else echo "FAIL $name: $out"; failed=$((failed+1)); fi
}
perf script -i "$work/s.data" -F comm,pid,tid 2>/dev/null >"$work/s.threads"
perf script -i "$work/s.data" -F comm,pid,tid --show-task-events 2>/dev/null >"$work/s.tasks"
perf script -i "$work/s.data" -F cpu,time,trace --ns 2>/dev/null >"$work/s.switches"
"$TK" convert "$work/s.data" --to json -o "$work/s.jsonl" || failed=$((failed+1))
"$TK" convert "$work/s.data" --to chrome -o "$work/s.json" || failed=$((failed+1))
run "thread table per sample" $check threads "$work/s.threads" "$work/s.jsonl"
run "chrome thread names" $check names "$work/s.tasks" "$work/s.json"
run "running slices per cpu" $check running "$work/s.switches" "$work/s.json"
run "chrome json well-formed" $py "$TK_SOURCE_DIR/tests/support/check_chrome.py" "$work/s.json" 1

cc -O1 -g -fno-omit-frame-pointer -o "$work/workload" "$TK_SOURCE_DIR/examples/workload.c" || exit 1
if perf record -q -g -e cpu-clock -c 200000 -o "$work/g.data" -- "$work/workload" \
     >/dev/null 2>"$work/g.err"; then
  perf script -i "$work/g.data" -F ip,sym,dso 2>/dev/null >"$work/g.stacks"
  "$TK" convert "$work/g.data" --to json -o "$work/g.jsonl" || failed=$((failed+1))
  run "symbolized frames (-g)" $check stacks "$work/g.stacks" "$work/g.jsonl"
else
  echo "SKIP -g: perf record -g failed: $(head -1 "$work/g.err")"
fi
[ $failed -eq 0 ] && echo "model context agrees with perf"
exit $((failed > 0))
