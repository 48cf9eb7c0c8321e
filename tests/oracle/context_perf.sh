#!/usr/bin/env bash
# Oracle for the model context on perf recordings made here (issue 12):
# - `perf record -e sched:sched_switch -a` running a workload that execs:
#   the thread table per sample (JSON lines' comm, pid, tid) equals `perf
#   script -F comm,pid,tid`; Chrome JSON names every thread as perf last
#   names it and has X events; the running slices per cpu are, slice for
#   slice (tid, duration), what ran between two of its switches, idle left
#   out, so they sum to the span between its first and last switch minus
#   the idle task's time (on a busy machine the stream misses switches:
#   see context_check.py);
# - --switch-events -a: running slices per cpu equal the IN -> OUT times of
#   perf script's SWITCH_CPU_WIDE records;
# - raw_syscalls:sys_enter/sys_exit: the Chrome syscall spans per thread
#   equal the enter -> exit pairs of perf script's text;
# - `perf record -g`: the JSON lines' symbolized frames (symbol, dso) equal
#   `perf script -F ip,sym,dso`, frame for frame.
# Parsed with /usr/bin/python3 (tests/support/context_check.py). Skipped
# (exit 77) where perf cannot record. A failure keeps the recordings and
# texts (the path is printed; KEEP=1 keeps them always): the system-wide
# ones depend on what else ran.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}"
py=/usr/bin/python3
[ -x "$py" ] || { echo "SKIP: no $py"; exit 77; }
command -v perf >/dev/null || { echo "SKIP: perf is not installed"; exit 77; }
work=$(mktemp -d)
failed=0
trap 'if [ $failed -eq 0 ] && [ -z "${KEEP:-}" ]; then rm -rf "$work"; else echo "kept in $work"; fi' EXIT
check="$py $TK_SOURCE_DIR/tests/support/context_check.py"

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

# raw_syscalls enter/exit: the syscall spans per thread
if perf record -q -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit -o "$work/sc.data" -- \
     sh -c 'ls / >/dev/null; cat /dev/null' >/dev/null 2>"$work/sc.err"; then
  perf script -i "$work/sc.data" -F tid,time,event,trace --ns 2>/dev/null >"$work/sc.txt"
  "$TK" convert "$work/sc.data" --to chrome -o "$work/sc.json" || failed=$((failed+1))
  run "syscall spans (raw_syscalls)" $check syscalls "$work/sc.txt" "$work/sc.json"
else
  echo "SKIP syscalls: perf record -e raw_syscalls failed: $(head -1 "$work/sc.err")"
fi

# perf --switch-events -a: running slices from SWITCH_CPU_WIDE records
if perf record -q -e cpu-clock -c 1000000 --switch-events -a -o "$work/sw.data" -- \
     sh -c 'ls / >/dev/null; sleep 0.05' >/dev/null 2>"$work/sw.err"; then
  perf script -i "$work/sw.data" --show-switch-events -F cpu,tid,time --ns 2>/dev/null >"$work/sw.txt"
  "$TK" convert "$work/sw.data" --to chrome -o "$work/sw.json" || failed=$((failed+1))
  run "running slices (--switch-events)" $check switches "$work/sw.txt" "$work/sw.json"
else
  echo "SKIP --switch-events: perf record failed: $(head -1 "$work/sw.err")"
fi

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
