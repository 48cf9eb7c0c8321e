#!/usr/bin/env bash
# tracekit record (issue 14) pipe mode: `tracekit record -o - ... -- workload
# | perf script -i -` prints what `tracekit print --format perf-script -`
# prints of the same stream, the workload's symbols resolve, its stdout
# went to stderr (not into the data), and a tracepoint recording in pipe
# mode (HEADER_TRACING_DATA record) is decoded by perf script. Event names:
# perf script names the events of a pipe-mode recording of `-e
# cpu-clock:u,task-clock` as it names those of perf record's own (the
# EVENT_DESC feature and EVENT_UPDATE name records; without them it made
# "cpu-clock:uh" of the attr's bits), and tracekit print agrees.
set -u
. "$(dirname "$0")/record_lib.bash"
"$TK" record -q -e cpu-clock -c 100000 -g -o - -- "$work/workload" 5 >"$work/p.data" 2>"$work/rec.err" ||
  { fail "tracekit record -o -: $(head -1 "$work/rec.err")"; exit 1; }
[ "$(head -c 8 "$work/p.data")" = PERFILE2 ] || fail "no PERFILE2 magic on stdout"
grep -q 'workload done' "$work/rec.err" || fail "the workload's stdout did not go to stderr"
perf script -i - <"$work/p.data" >"$work/want" 2>"$work/want.err" || fail "perf script -i -: $(head -1 "$work/want.err")"
"$TK" print --format perf-script - <"$work/p.data" >"$work/got" 2>"$work/got.err" || fail "tracekit print -: $(head -1 "$work/got.err")"
grep -q ' hash_loop+0x' "$work/want" || fail "hash_loop not resolved in pipe mode"
if cmp -s "$work/want" "$work/got"; then echo "ok   pipe: perf script == tracekit print ($(grep -c 'cpu-clock:' "$work/want") samples)"
else fail "pipe: perf script and tracekit print differ"; diff "$work/want" "$work/got" | head -5; fi
if [ -r /sys/kernel/tracing/events/sched/sched_switch/id ]; then
  "$TK" record -q -e sched:sched_switch -a -o - -- sleep 0.1 2>/dev/null | perf script -i - >"$work/tp" 2>"$work/tp.err"
  grep -q 'sched:sched_switch: prev_comm=.* ==> next_comm=' "$work/tp" || fail "pipe: sched_switch not decoded: $(head -1 "$work/tp.err")"
fi
names() { perf script -F event -i - 2>/dev/null | sort -u | tr -d ' ' | tr '\n' ' '; }
perf record -q -e cpu-clock:u,task-clock -c 100000 -o - -- "$work/workload" 3 2>/dev/null | names >"$work/n.perf"
"$TK" record -q -e cpu-clock:u,task-clock -c 100000 -o - -- "$work/workload" 3 2>/dev/null >"$work/n.data"
names <"$work/n.data" >"$work/n.tk"
if [ -s "$work/n.perf" ] && cmp -s "$work/n.perf" "$work/n.tk"; then echo "ok   pipe: event names as perf's own: $(cat "$work/n.tk")"
else fail "pipe: event names: perf record's '$(cat "$work/n.perf")', ours '$(cat "$work/n.tk")'"; fi
perf script -i - <"$work/n.data" >"$work/n.want" 2>/dev/null
"$TK" print --format perf-script - <"$work/n.data" >"$work/n.got" 2>/dev/null
cmp -s "$work/n.want" "$work/n.got" || { fail "pipe: named events: perf script and tracekit print differ"; diff "$work/n.want" "$work/n.got" | head -3; }
[ $failed -eq 0 ] && echo "record_pipe: all checks passed"
exit $((failed > 0))
