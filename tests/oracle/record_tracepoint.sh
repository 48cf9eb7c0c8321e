#!/usr/bin/env bash
# tracekit record (issue 14): tracepoints. `-e sched:sched_switch -a --
# sleep 0.2` writes the tracepoint's format into HEADER_TRACING_DATA, so
# `perf script` prints the switch fields (prev_comm=... ==> next_comm=...)
# and its output equals `tracekit print --format perf-script`. The sleep
# itself switches out at least once, so its own switch must be there.
# The -a side-band has a FORK and COMM per existing thread.
# A glob (sched:sched_process_*) records every matching tracepoint.
set -u
. "$(dirname "$0")/record_lib.bash"
if [ ! -r /sys/kernel/tracing/events/sched/sched_switch/id ] && [ ! -r /sys/kernel/debug/tracing/events/sched/sched_switch/id ]; then
  echo "SKIP: no sched:sched_switch tracepoint in tracefs"; exit 77
fi
data="$work/tp.data"
if ! "$TK" record -q -e sched:sched_switch -a -o "$data" -- sleep 0.2 2>"$work/rec.err"; then
  fail "tracekit record failed: $(cat "$work/rec.err")"; exit 1
fi
perf script -i "$data" >"$work/want" 2>"$work/want.err" || fail "perf script exit $?: $(head -2 "$work/want.err")"
"$TK" print --format perf-script "$data" >"$work/got" 2>"$work/got.err" || fail "tracekit print: $(head -2 "$work/got.err")"
grep -q 'sched:sched_switch: prev_comm=.* ==> next_comm=' "$work/want" || fail "perf script shows no decoded sched_switch"
grep -q 'sched:sched_switch: prev_comm=sleep ' "$work/want" || fail "the sleep's own switch is missing"
if cmp -s "$work/want" "$work/got"; then echo "ok   perf script == tracekit print ($(wc -l <"$work/want") lines)"
else fail "perf script and tracekit print differ:"; diff "$work/want" "$work/got" | head -5; fi
perf report --stats -i "$data" >"$work/stats" 2>&1 || fail "perf report --stats exit $?"
if grep -Eiq 'error|warning|unknown|invalid' "$work/stats"; then fail "perf report --stats: $(grep -Ei 'error|warning|unknown|invalid' "$work/stats" | head -1)"; fi
# -a side-band: a FORK and a COMM per existing thread (pid 1's among them),
# printed alike by perf script and tracekit print --show-task-events
perf script --show-task-events -i "$data" >"$work/task.want" 2>/dev/null
"$TK" print --format perf-script --show-task-events "$data" >"$work/task.got" 2>/dev/null
grep -q 'PERF_RECORD_FORK(1:1):' "$work/task.want" || fail "-a: no synthesized FORK of pid 1"
grep -q 'PERF_RECORD_COMM: .*:1/1$' "$work/task.want" || fail "-a: no synthesized COMM of pid 1"
cmp -s "$work/task.want" "$work/task.got" && echo "ok   -a task events: perf script == tracekit print" || fail "-a: task events differ"
# a glob: sched:sched_process_* gives the fork and exec of the shell's child
"$TK" record -q -e 'sched:sched_process_*' -a -o "$work/g.data" -- sh -c 'sleep 0.05; true' 2>"$work/g.rec" ||
  fail "glob: $(head -1 "$work/g.rec")"
perf script -i "$work/g.data" >"$work/g.want" 2>/dev/null || fail "glob: perf script failed"
"$TK" print --format perf-script "$work/g.data" >"$work/g.got" 2>/dev/null || fail "glob: tracekit print failed"
for ev in sched_process_fork sched_process_exec; do
  grep -q "sched:$ev:" "$work/g.want" || fail "glob: no sched:$ev in perf script"
done
if cmp -s "$work/g.want" "$work/g.got"; then echo "ok   glob sched:sched_process_*: perf script == tracekit print"
else fail "glob: perf script and tracekit print differ"; fi
[ $failed -eq 0 ] && echo "record_tracepoint: all checks passed"
exit $((failed > 0))
