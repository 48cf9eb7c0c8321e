#!/usr/bin/env bash
# tracekit record (issue 14) failure modes: an unknown event exits 2 and
# lists similar names (software events and tracepoints); an unknown option
# exits 2, as do an empty -e, an offline -C CPU and a glob matching nothing;
# a COMMAND that cannot be run exits 127 leaving no file; without
# permission (an unprivileged user while kernel.perf_event_paranoid >= 2
# forbids kernel sampling) the message names kernel.perf_event_paranoid and
# nothing is left behind; SIGINT during a recording leaves a complete file.
set -u
. "$(dirname "$0")/record_lib.bash"
expect() { # NAME WANT-RC PATTERN CMD...
  local name=$1 want=$2 pat=$3; shift 3
  "$@" >"$work/out" 2>"$work/err"; local rc=$?
  if [ $rc -ne "$want" ]; then fail "$name: exit $rc, want $want: $(head -1 "$work/err")"
  elif ! grep -q -- "$pat" "$work/err"; then fail "$name: stderr lacks '$pat': $(head -1 "$work/err")"
  else echo "ok   $name"; fi
}
cd "$work" || exit 1
expect "unknown software event" 2 "unknown event 'cpu-clok' (similar: cpu-clock" "$TK" record -e cpu-clok -o x.data -- true
if [ -r /sys/kernel/tracing/events/sched/sched_switch/id ]; then
  expect "unknown tracepoint" 2 "similar: .*sched:sched_switch" "$TK" record -e sched:sched_swtch -o x.data -- true
fi
expect "empty event list" 2 "no event in ''" "$TK" record -e '' -o x.data -- true
expect "offline CPU" 2 "CPU 4096 is not online\|not a CPU list" "$TK" record -C 4096 -o x.data -- true
expect "glob matching nothing" 2 "no tracepoint matches 'sched:nomatch\*'" "$TK" record -e 'sched:nomatch*' -o x.data -- true
expect "unknown option" 2 "unknown option '--bogus'" "$TK" record --bogus -- true
expect "missing command" 127 "cannot run '/nonexistent/cmd'" "$TK" record -q -o x.data -- /nonexistent/cmd
[ -e x.data ] && fail "a failed recording left x.data"
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo -1)
if [ "$(id -u)" = 0 ] && [ "$paranoid" -ge 2 ] && command -v setpriv >/dev/null; then
  chmod 777 "$work"
  expect "no permission" 1 "kernel.perf_event_paranoid" \
    setpriv --reuid 65534 --regid 65534 --clear-groups "$TK" record -o "$work/np.data" -- true
  [ -e "$work/np.data" ] && fail "a refused recording left np.data"
else
  echo "skip no permission: needs root, setpriv and perf_event_paranoid >= 2 (is $paranoid)"
fi
# SIGINT: the recorder stops, the file is complete (perf reads every record)
"$TK" record -q -a -o int.data -- sleep 30 >/dev/null 2>int.err & pid=$!
for _ in $(seq 100); do [ -n "$(ls .int.data* int.data* 2>/dev/null)" ] && break; sleep 0.05; done
kill -INT $pid; wait $pid; rc=$?
[ $rc -eq 0 ] || fail "SIGINT: exit $rc: $(head -1 int.err)"
if perf report --stats -i int.data >int.stats 2>&1 && grep -q 'TOTAL events' int.stats && ! grep -Eiq 'error|invalid|unknown' int.stats; then
  echo "ok   SIGINT leaves a complete file"
else fail "SIGINT: perf report --stats: $(head -3 int.stats)"; fi
pgrep -f "sleep 30" -P $pid >/dev/null 2>&1 && fail "the workload survived"
[ $failed -eq 0 ] && echo "record_errors: all checks passed"
exit $((failed > 0))
