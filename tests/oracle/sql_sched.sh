#!/usr/bin/env bash
# Oracle: the sched table (running slices from sched:sched_switch) against
# `perf sched timehist` on a recording made here: every slice timehist
# reports (switch-out time, CPU, run time, to its microsecond) is a slice of
# ours and back, but for the slices at the edges (timehist prints a 0.000
# run time for each CPU's first switch, whose start it has not seen; ours
# still running at the end have no end_state). The thread: timehist names
# the task switched out (prev_pid), Perfetto's sched the one switched in
# (next_pid); they are compared where the two events agree, and agree with
# the switch-out sample's own tid, which timehist prints (in a container the
# tracepoint fields hold the kernel's global ids, the sample perf's view).
# Then the running time per thread: thread_state's Running rows (the model
# context's spans) summed per thread = the sum of timehist's run times of
# that thread, for every thread whose slices all agree on the thread (a
# slice whose switch-out names another task than its switch-in -- an event
# the kernel did not record -- is a different guess in each tool).
# timehist prints run times truncated to the microsecond, so dropping its
# "0.000" lines (the first switches) also drops real slices under 1 us,
# which a loaded machine makes (3 runs in 88 beside other tests): ours
# under 1 us are dropped by the same rule (dur >= 1000).
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}"
if "$TK" sql /dev/null 'SELECT 1' 2>&1 | grep -q 'not available'; then
  echo "SKIP: tracekit built without sqlite3"; exit 77
fi
command -v perf >/dev/null || { echo "SKIP: perf is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O1 -o "$work/workload" "$TK_SOURCE_DIR/examples/workload.c" || exit 1
if ! perf record -q -e sched:sched_switch -a -o "$work/s.data" -- sh -c "$work/workload >/dev/null; sleep 0.1" \
     >/dev/null 2>"$work/rec.err" || [ ! -s "$work/s.data" ]; then
  echo "SKIP: perf cannot record sched:sched_switch here: $(head -1 "$work/rec.err")"; exit 77
fi
# timehist's slices as "time cpu tid run-time": its "lost N events on cpu
# C" lines (a loaded machine loses events) are not slices, and a task name
# may hold spaces ("Consumer manage[24998/24950]", an LTTng thread), so the
# name is every field between the CPU and the three times.
perf sched timehist -i "$work/s.data" 2>/dev/null |
  awk 'NR > 3 && $2 ~ /^\[[0-9]+\]$/ && $NF != "0.000" {
         c = $2; gsub(/[\[\]]/, "", c)
         task = $3; for (k = 4; k <= NF - 3; k++) task = task " " $k
         if (task == "<idle>") id = 0
         else { n = split(task, b, "["); id = b[n]; sub(/[]\/].*/, "", id) }
         printf "%s %d %s %s\n", $1, c, id, $NF }' >"$work/timehist"
awk '{ print $1, $2, $4 }' "$work/timehist" | LC_ALL=C sort >"$work/want"
[ -s "$work/want" ] || { echo "SKIP: perf sched timehist printed nothing"; exit 77; }
"$TK" sql -q --format csv "$work/s.data" "
  SELECT printf('%d.%06d', (ts + dur) / 1000000000, ((ts + dur) / 1000) % 1000000), cpu,
         printf('%d.%03d', dur / 1000000, (dur / 1000) % 1000)
  FROM sched WHERE end_state IS NOT NULL AND dur >= 1000" | tail -n +2 | tr ',' ' ' | LC_ALL=C sort >"$work/got"
failed=0
if diff -u "$work/want" "$work/got" >"$work/diff"; then
  echo "ok: $(wc -l <"$work/want") slices (end, cpu, run time) = perf sched timehist"
else
  echo "FAIL: slices differ from perf sched timehist (time cpu run-time)"; head -20 "$work/diff"; failed=1
fi
# Threads where the switch-in and switch-out events name the same one.
# (as sets: two switches at one time and CPU, the second after a slice
# under 1 us, both join the slice that ends there)
awk '{ print $1, $2, $3 }' "$work/timehist" | LC_ALL=C sort -u >"$work/want_tid"
"$TK" sql -q --format csv "$work/s.data" "
  WITH sw AS MATERIALIZED (SELECT ts, cpu, tid, json_extract(args, '\$.prev_pid') AS prev FROM event
              WHERE name = 'sched:sched_switch')
  SELECT DISTINCT printf('%d.%06d', (s.ts + s.dur) / 1000000000, ((s.ts + s.dur) / 1000) % 1000000), s.cpu, s.tid
  FROM sched s JOIN sw ON sw.ts = s.ts + s.dur AND sw.cpu = s.cpu
  WHERE s.end_state IS NOT NULL AND s.dur >= 1000 AND sw.prev = s.tid AND sw.tid = s.tid" | tail -n +2 | tr ',' ' ' | LC_ALL=C sort >"$work/got_tid"
agree=$(wc -l <"$work/got_tid")
missing=$(LC_ALL=C comm -13 "$work/want_tid" "$work/got_tid" | wc -l)
if [ "$agree" -gt 0 ] && [ "$missing" -eq 0 ]; then
  echo "ok: $agree slices whose events agree on the thread = timehist's thread"
else
  echo "FAIL: $missing of $agree slices name another thread than timehist"
  LC_ALL=C comm -13 "$work/want_tid" "$work/got_tid" | head -5; failed=1
fi
awk '$3 != 0 { split($4, t, "."); us[$3] += t[1] * 1000 + t[2] } END { for (k in us) if (k > 0) print k, us[k] }' \
  "$work/timehist" | LC_ALL=C sort >"$work/want_run"
"$TK" sql -q --format csv "$work/s.data" "
  WITH sw AS MATERIALIZED (SELECT ts, cpu, tid, json_extract(args, '\$.prev_pid') AS prev FROM event
              WHERE name = 'sched:sched_switch'),
  bad AS (SELECT s.tid AS t FROM sched s LEFT JOIN sw ON sw.ts = s.ts + s.dur AND sw.cpu = s.cpu
          WHERE s.end_state IS NOT NULL AND (sw.prev IS NOT s.tid OR sw.tid IS NOT s.tid)
          UNION SELECT sw.prev FROM sched s JOIN sw ON sw.ts = s.ts + s.dur AND sw.cpu = s.cpu
          WHERE s.end_state IS NOT NULL AND (sw.prev IS NOT s.tid OR sw.tid IS NOT s.tid)
          UNION SELECT sw.tid FROM sched s JOIN sw ON sw.ts = s.ts + s.dur AND sw.cpu = s.cpu
          WHERE s.end_state IS NOT NULL AND (sw.prev IS NOT s.tid OR sw.tid IS NOT s.tid)),
  sl AS MATERIALIZED (SELECT ts, cpu FROM sched WHERE end_state IS NOT NULL),
  run AS MATERIALIZED (SELECT tid, ts, cpu, dur FROM thread_state WHERE state = 'Running' AND dur >= 1000)
  SELECT r.tid, sum(r.dur / 1000) FROM run r
  JOIN sl s ON s.ts = r.ts AND s.cpu = r.cpu
  WHERE r.tid > 0 AND r.tid NOT IN (SELECT t FROM bad WHERE t IS NOT NULL)
  GROUP BY r.tid" | tail -n +2 | tr ',' ' ' | LC_ALL=C sort >"$work/got_run"
compared=$(wc -l <"$work/got_run")
wrong=$(LC_ALL=C join "$work/want_run" "$work/got_run" | awk '$2 != $3' | wc -l)
missing=$(LC_ALL=C join -v 2 "$work/want_run" "$work/got_run" | wc -l)
if [ "$compared" -gt 0 ] && [ "$wrong" -eq 0 ] && [ "$missing" -eq 0 ]; then
  echo "ok: running time of $compared of $(wc -l <"$work/want_run") threads (thread_state Running) = sum of timehist run times"
else
  echo "FAIL: $wrong of $compared threads' running time differ from timehist, $missing not in timehist"
  LC_ALL=C join -a 2 "$work/want_run" "$work/got_run" | awk '$2 != $3' | head -5; failed=1
fi
exit $failed
