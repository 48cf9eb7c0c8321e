#!/usr/bin/env bash
# tracekit record (issue 14) killed with SIGKILL: the output is written to a
# temporary file (.NAME.tk-XXXXXX, renamed to NAME at a clean end) whose
# header already holds the attrs and data size 0, as perf's while it
# records; tracekit reads it up to its last complete record (with its
# "not finished" warning), and finds samples in it. The recorder is killed
# once the file has grown past 300 kB, not after a fixed time.
set -u
. "$(dirname "$0")/record_lib.bash"
cd "$work" || exit 1
"$TK" record -q -a -g -o k.data --duration 120 >/dev/null 2>rec.err & pid=$!
f=
for _ in $(seq 600); do
  f=$(ls .k.data.tk-* 2>/dev/null | head -1)
  [ -n "$f" ] && [ "$(stat -c %s "$f")" -gt 300000 ] && break
  sleep 0.05
done
kill -KILL $pid; wait $pid 2>/dev/null
if [ -z "$f" ] || [ "$(stat -c %s "$f")" -le 300000 ]; then
  echo "SKIP: the recording did not reach 300 kB in 30 s (an idle machine?)"; exit 77
fi
[ -e k.data ] && fail "k.data exists although the recorder was killed"
"$TK" stats "$f" >stats.out 2>stats.err || fail "tracekit stats of the killed file: exit $?: $(head -1 stats.err)"
grep -q 'not finished' stats.err || fail "no 'not finished' warning: $(head -1 stats.err)"
n=$(awk '/SAMPLE events:/ {print $3; exit}' stats.out)
[ "${n:-0}" -gt 0 ] && echo "ok   killed recording read: $n samples" || fail "no samples read from the killed file"
"$TK" print --format perf-script "$f" >/dev/null 2>print.err || fail "tracekit print of the killed file: $(head -1 print.err)"
[ $failed -eq 0 ] && echo "record_kill: all checks passed"
exit $((failed > 0))
