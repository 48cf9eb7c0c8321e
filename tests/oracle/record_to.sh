#!/usr/bin/env bash
# tracekit record --to FORMAT (issue 14): the recording streamed into
# another format instead of perf.data.
# - `--to ctf` of a fixed command's process tracepoints (3 forks, 4 execs,
#   4 exits of `sh -c 'for i in 1 2 3; do /bin/true; done'`) is read by
#   babeltrace2 and its events equal, in order and fields, those of the
#   perf.data mode's recording of the same command converted with
#   `tracekit convert --to ctf` (numbers, which are pids, ids and CPUs of
#   two different runs, and times are masked);
# - `--to cpel`: tracekit print shows the same event sequence;
# - `-a --to ctf`: one CTF stream per CPU (each stream file's events are
#   of one cpu_id, every CPU with events has a stream);
# - the workload's stdout stays its own (not mixed into the data).
set -u
. "$(dirname "$0")/record_lib.bash"
command -v babeltrace2 >/dev/null || { echo "SKIP: babeltrace2 is not installed"; exit 77; }
ev=sched:sched_process_fork,sched:sched_process_exec,sched:sched_process_exit
[ -r /sys/kernel/tracing/events/sched/sched_process_fork/id ] || [ -r /sys/kernel/debug/tracing/events/sched/sched_process_fork/id ] ||
  { echo "SKIP: no sched process tracepoints"; exit 77; }
cmd=(sh -c 'for i in 1 2 3; do /bin/true; done; echo on-stdout')
"$TK" record -q -e "$ev" -o "$work/a.data" -- "${cmd[@]}" >"$work/a.out" 2>"$work/a.err" || fail "record (perf.data): $(head -2 "$work/a.err")"
"$TK" convert "$work/a.data" --to ctf -o "$work/a.ctf" 2>"$work/conv.err" || fail "convert --to ctf: $(head -2 "$work/conv.err")"
"$TK" record -q -e "$ev" -o "$work/b.ctf" --to ctf -- "${cmd[@]}" >"$work/b.out" 2>"$work/b.err" || fail "record --to ctf: $(head -2 "$work/b.err")"
[ "$(cat "$work/b.out")" = on-stdout ] || fail "--to ctf: the workload's stdout: '$(head -c 100 "$work/b.out")'"
norm() { babeltrace2 "$1" 2>"$work/bt.err" | sed -E 's/^\[[^]]*\] \([^)]*\) //; s/[0-9]+/N/g'; }
norm "$work/a.ctf" >"$work/a.bt" || fail "babeltrace2 cannot read the converted perf.data: $(head -2 "$work/bt.err")"
norm "$work/b.ctf" >"$work/b.bt" || fail "babeltrace2 cannot read record --to ctf: $(head -2 "$work/bt.err")"
n_exec=$(grep -c '^sched:sched_process_exec:' "$work/b.bt")
n_fork=$(grep -c '^sched:sched_process_fork:' "$work/b.bt")
[ "$n_fork" -eq 3 ] && [ "$n_exec" -eq 4 ] || fail "--to ctf: $n_fork forks and $n_exec execs, want 3 and 4"
if cmp -s "$work/a.bt" "$work/b.bt"; then echo "ok   --to ctf == perf.data mode converted ($(wc -l <"$work/b.bt") events, babeltrace2)"
else fail "--to ctf and the perf.data mode differ:"; diff "$work/a.bt" "$work/b.bt" | head -6; fi
# CPEL
"$TK" record -q -e "$ev" -o "$work/c.cpel" --to cpel -- "${cmd[@]}" >/dev/null 2>"$work/c.err" || fail "record --to cpel: $(head -2 "$work/c.err")"
"$TK" print "$work/c.cpel" 2>"$work/cp.err" | awk '{print $2}' | sed 's/:$//' >"$work/c.names" || fail "print of the CPEL file: $(head -2 "$work/cp.err")"
awk '{print $1}' "$work/b.bt" | sed 's/:$//' >"$work/b.names"
if cmp -s "$work/b.names" "$work/c.names"; then echo "ok   --to cpel: the same $(wc -l <"$work/c.names") events in order"
else fail "--to cpel events differ from --to ctf's:"; diff "$work/b.names" "$work/c.names" | head -6; fi
# -a: one stream per CPU
"$TK" record -q -a -e cpu-clock -c 1000000 -o "$work/all.ctf" --to ctf -- sleep 0.5 >/dev/null 2>"$work/all.err" || fail "record -a --to ctf: $(head -2 "$work/all.err")"
cpus=$(babeltrace2 "$work/all.ctf" 2>/dev/null | sed -nE 's/.*\{ cpu_id = ([0-9]+) \}.*/\1/p' | sort -u | wc -l)
streams=0
for f in "$work/all.ctf"/stream_*; do
  streams=$((streams + 1))
  ids=$(babeltrace2 "$f" "$work/all.ctf/metadata" 2>/dev/null | sed -nE 's/.*\{ cpu_id = ([0-9]+) \}.*/\1/p' | sort -u | wc -l)
  [ "$ids" -le 1 ] || fail "$(basename "$f") holds events of $ids CPUs"
done
[ "$cpus" -ge 1 ] && [ "$streams" -eq "$cpus" ] && echo "ok   -a --to ctf: $streams streams for $cpus CPUs" || fail "-a --to ctf: $streams streams, $cpus CPUs"
# SIGKILL of the recorder (by its own workload, so it lands after the
# counters started, wherever the drain is): the converter completes the
# output from the stream it got, babeltrace2 reads it
"$TK" record -q -a -e cpu-clock -c 1000000 -o "$work/k.ctf" --to ctf -- sh -c 'kill -KILL $PPID' >/dev/null 2>&1
for i in $(seq 1 100); do [ -e "$work/k.ctf/metadata" ] && break; sleep 0.1; done  # the converter ends on its own
babeltrace2 "$work/k.ctf" >/dev/null 2>"$work/k.err" && echo "ok   after SIGKILL: babeltrace2 reads the CTF output" ||
  fail "after SIGKILL: $(head -2 "$work/k.err")"
# a converter that fails (no such directory): exit 1 with its reason, not
# the recorder dying of SIGPIPE
"$TK" record -q -o "$work/no/such/dir" --to ctf -- true >/dev/null 2>"$work/f.err"; rc=$?
[ $rc -eq 1 ] && grep -q 'conversion to ctf' "$work/f.err" && echo "ok   a failing converter: exit 1" || fail "failing converter: exit $rc: $(head -2 "$work/f.err")"
# -o - with a format convert streams: JSON lines on stdout, the workload's
# own output on stderr
"$TK" record -q -e "$ev" --to json -o - -- "${cmd[@]}" >"$work/j.out" 2>"$work/j.err" || fail "--to json -o -: $(head -2 "$work/j.err")"
[ "$(grep -c '"event":"sched:sched_process_exec"' "$work/j.out")" -eq 4 ] && grep -q '^on-stdout$' "$work/j.err" &&
  echo "ok   --to json -o -: 4 exec events on stdout, the workload's output on stderr" || fail "--to json -o -: $(head -c 300 "$work/j.out")"
"$TK" record -q --to ctf -o - -- true >/dev/null 2>&1; [ $? -eq 2 ] || fail "--to ctf -o -: want exit 2"
# usage errors
"$TK" record --to ctf -- true >/dev/null 2>&1; [ $? -eq 2 ] || fail "--to without -o: want exit 2"
"$TK" record --to nosuchformat -o "$work/x" -- true >/dev/null 2>&1; [ $? -eq 2 ] || fail "--to nosuchformat: want exit 2"
[ $failed -eq 0 ] && echo "record_to: all checks passed"
exit $((failed > 0))
