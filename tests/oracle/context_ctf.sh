#!/usr/bin/env bash
# Oracle for the model context on an LTTng kernel trace (the shared
# lttng-tracefile-rotation: sched_switch/wakeup/fork on 4 cpus) against
# babeltrace2's text of the same trace: Chrome JSON names every thread as
# the trace last names it (sched_switch prev/next_comm, sched_wakeup comm,
# sched_process_fork child_comm), and the running slices per cpu are, slice
# for slice, what ran between two of its switches (so they sum to the span
# between its first and last switch minus the idle task's time). And
# an LTTng-UST per-process trace (wk-heartbeat-u) gets its process named by
# the trace environment's procname, as babeltrace2's details sink shows it,
# and a UST statedump's images place an event's ip as babeltrace2
# --debug-info does.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}" "${TK_TESTDATA:?}"
py=/usr/bin/python3
[ -x "$py" ] || { echo "SKIP: no $py"; exit 77; }
command -v babeltrace2 >/dev/null || { echo "SKIP: babeltrace2 is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
check="$py $TK_SOURCE_DIR/tests/support/context_check.py"
failed=0
run() { # NAME CMD...
  local name=$1; shift
  if out=$("$@" 2>&1); then echo "ok $name: $out"; else echo "FAIL $name: $out"; failed=$((failed+1)); fi
}
t="$TK_TESTDATA/ctf/babeltrace/succeed/lttng-tracefile-rotation"
babeltrace2 "$t" >"$work/k.bt" 2>/dev/null || { echo "FAIL: babeltrace2 cannot read $t"; exit 1; }
"$TK" convert "$t" --to chrome -o "$work/k.json" || failed=$((failed+1))
run "lttng kernel thread names" $check bt-names "$work/k.bt" "$work/k.json"
run "lttng kernel running slices" $check bt-running "$work/k.bt" "$work/k.json"
run "chrome json well-formed" $py "$TK_SOURCE_DIR/tests/support/check_chrome.py" "$work/k.json" 12305

u="$TK_TESTDATA/ctf/babeltrace/succeed/wk-heartbeat-u"
want=$(babeltrace2 -c sink.text.details "$u" 2>/dev/null | sed -n 's/^ *procname: //p' | head -1)
"$TK" convert "$u" --to chrome -o "$work/u.json" || failed=$((failed+1))
got=$($py -c '
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
print(",".join(sorted({e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"})))
' "$work/u.json")
if [ -n "$want" ] && [ "$got" = "$want" ]; then echo "ok lttng-ust process name: $got"
else echo "FAIL lttng-ust process name: '$got', babeltrace2 says '$want'"; failed=$((failed+1)); fi
# LTTng-UST bin_info statedump: an event's ip context in its process's
# images, as babeltrace2's debug-info filter places it ("libhello-so+0x2349")
d="$TK_TESTDATA/ctf/babeltrace/succeed/debug-info"
if babeltrace2 --debug-info "$d" >"$work/d.bt" 2>/dev/null; then
  "$TK" convert "$d" --to json -o "$work/d.jsonl" || failed=$((failed+1))
  run "lttng-ust images (bin_info)" $check bt-bin "$work/d.bt" "$work/d.jsonl"
else
  echo "SKIP lttng-ust images: babeltrace2 has no debug-info filter"
fi
[ $failed -eq 0 ] && echo "model context agrees with babeltrace2"
exit $((failed > 0))
