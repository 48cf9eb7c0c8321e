#!/usr/bin/env bash
# tracekit record (issue 14) options, each read back by perf:
#  -z: COMPRESSED records (perf report --stats counts them) and perf script
#      of the file equals tracekit print of it;
#  --switch-events: perf script --show-switch-events shows PERF_RECORD_SWITCH
#      records and equals tracekit print --show-switch-events;
#  --call-graph dwarf: perf script unwinds the user stacks (hash_loop <- main);
#  -p ends when its process exits;
#  -p PID (and -t TID) of an already running workload: its samples resolve to hash_loop /
#      sort_work through the MMAP2 records synthesized from /proc (the
#      process was mapped before recording began), under its comm.
set -u
. "$(dirname "$0")/record_lib.bash"
same() { # NAME FILE [perf script options]
  local name=$1 f=$2; shift 2
  perf script -i "$f" "$@" >"$work/$name.want" 2>"$work/$name.err" || fail "$name: perf script: $(head -1 "$work/$name.err")"
  "$TK" print --format perf-script "$@" "$f" >"$work/$name.got" 2>>"$work/$name.err" || fail "$name: tracekit print: $(tail -1 "$work/$name.err")"
  if cmp -s "$work/$name.want" "$work/$name.got"; then echo "ok   $name: perf script == tracekit print ($(wc -l <"$work/$name.want") lines)"
  else fail "$name: perf script and tracekit print differ"; diff "$work/$name.want" "$work/$name.got" | head -4; fi
}
"$TK" record -q -z -e cpu-clock -c 100000 -g -o "$work/z.data" -- "$work/workload" 3 >/dev/null 2>"$work/z.rec" || fail "-z: $(head -1 "$work/z.rec")"
perf report --stats -i "$work/z.data" 2>&1 | grep -q 'COMPRESSED events' || fail "-z: no COMPRESSED records"
same z "$work/z.data"
grep -q ' hash_loop+0x' "$work/z.want" || fail "-z: hash_loop not resolved"

"$TK" record -q --switch-events -e cpu-clock -c 100000 -o "$work/sw.data" -- sleep 0.05 >/dev/null 2>"$work/sw.rec" || fail "--switch-events: $(head -1 "$work/sw.rec")"
same sw "$work/sw.data" --show-switch-events
grep -q 'PERF_RECORD_SWITCH' "$work/sw.want" || fail "--switch-events: no PERF_RECORD_SWITCH (the sleep must switch out)"

# --call-graph dwarf: perf unwinds the copied user stacks, hash_loop's
# caller main is in the stack (the kernel's callchain stops at user space)
"$TK" record -q -e cpu-clock -c 100000 --call-graph dwarf -o "$work/dw.data" -- "$work/workload" 3 >/dev/null 2>"$work/dw.rec" || fail "dwarf: $(head -1 "$work/dw.rec")"
perf script -i "$work/dw.data" >"$work/dw.want" 2>/dev/null || fail "dwarf: perf script failed"
if grep -A1 ' hash_loop+0x' "$work/dw.want" | grep -q ' main+0x'; then echo "ok   dwarf: perf script unwinds hash_loop <- main"
else fail "dwarf: perf script shows no hash_loop <- main stack"; fi
"$TK" stats "$work/dw.data" >/dev/null 2>"$work/dw.err" || fail "dwarf: tracekit stats: $(head -1 "$work/dw.err")"

"$work/workload" 100000 >/dev/null 2>&1 & wl=$!
# wait until the exec is done (its comm is 'workload'), not for a time
for _ in $(seq 200); do [ "$(cat /proc/$wl/comm 2>/dev/null)" = workload ] && break; sleep 0.01; done
"$TK" record -q -e cpu-clock -c 100000 -g -p "$wl" --duration 0.3 -o "$work/p.data" 2>"$work/p.rec" || fail "-p: $(head -1 "$work/p.rec")"
"$TK" record -q -e cpu-clock -c 100000 -t "$wl" --duration 0.2 -o "$work/t.data" 2>"$work/t.rec" || fail "-t: $(head -1 "$work/t.rec")"
kill $wl; wait $wl 2>/dev/null
same t "$work/t.data"
grep -Eq "^ *workload *$wl .* (hash_loop|sort_work)\+0x" "$work/t.want" || fail "-t: no resolved sample of thread $wl"
same p "$work/p.data"
grep -q "^ *workload *$wl .* cpu-clock:" "$work/p.want" || fail "-p: no sample of pid $wl under comm workload"
grep -Eq ' (hash_loop|sort_work)\+0x[0-9a-f]+ \(.*workload\)' "$work/p.want" || fail "-p: workload symbols not resolved (synthesized MMAP2)"
# -p ends when the process does (every ring reports POLLHUP), not at --duration
"$work/workload" 60 >/dev/null 2>&1 & wl=$!
for _ in $(seq 200); do [ "$(cat /proc/$wl/comm 2>/dev/null)" = workload ] && break; sleep 0.01; done
"$TK" record -q -p "$wl" --duration 600 -o "$work/end.data" 2>"$work/end.rec" & rp=$!
wait $wl
for _ in $(seq 100); do kill -0 $rp 2>/dev/null || break; sleep 0.1; done
if kill -0 $rp 2>/dev/null; then fail "-p: the recorder still runs 10 s after its process exited"; kill -INT $rp; fi
wait $rp; rc=$?
if [ $rc -ne 0 ] && grep -q 'No such process' "$work/end.rec"; then
  echo "skip -p end: the workload ended before the recorder attached"
elif [ $rc -ne 0 ]; then fail "-p: exit $rc: $(head -1 "$work/end.rec")"
else
  perf report --stats -i "$work/end.data" >/dev/null 2>&1 && echo "ok   -p: the recording ended with its process" || fail "-p: end.data unreadable"
fi
# -m: ring pages (rounded up to a power of 2) or a size; the wakeup
# watermark is a quarter of the ring, which perf evlist shows
pg=$(getconf PAGESIZE)
for m in "3:4" "512K:$((524288 / pg))"; do
  arg=${m%%:*} pages=${m#*:}
  if "$TK" record -q -m "$arg" -e cpu-clock -c 100000 -o "$work/m.data" -- "$work/workload" 1 >/dev/null 2>"$work/m.err"; then
    wm=$(perf evlist -v -i "$work/m.data" 2>/dev/null | sed -nE 's/.*wakeup_watermark[^0-9]*([0-9]+).*/\1/p' | head -1)
    [ "$wm" = "$((pages * pg / 4))" ] && echo "ok   -m $arg: $pages pages (watermark $wm)" || fail "-m $arg: watermark '$wm', want $((pages * pg / 4))"
    perf script -i "$work/m.data" >/dev/null 2>&1 || fail "-m $arg: perf script cannot read the recording"
  else fail "-m $arg: $(head -1 "$work/m.err")"; fi
done
"$TK" record -m 12Q -- true >/dev/null 2>&1; [ $? -eq 2 ] || fail "-m 12Q: want exit 2"
[ $failed -eq 0 ] && echo "record_options: all checks passed"
exit $((failed > 0))
