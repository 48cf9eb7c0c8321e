#!/bin/sh
# Oracle: the counter table of a real LTTng-UST trace made here, with perf
# counter contexts (lttng add-context -t perf:thread:task-clock, page-fault)
# and the tk_test:tick event whose payload is one number (an LTTng-UST
# counter for the model context): every (track, value) pair equals what
# babeltrace2 prints for the same events ("perf_thread_task_clock tid VTID"
# from each event's context, "tk_test:tick.n" from each tick's payload).
# Starts a session daemon when none runs (and stops it again). Exit 77
# (skipped) with a message when LTTng cannot run here.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}"
skip() { echo "sql_lttng_counters: skipped: $*"; exit 77; }
"$TK" sql /dev/null 'SELECT 1' 2>&1 | grep -q 'not available' && skip "tracekit built without sqlite3"
export LC_ALL=C
. "$TK_SOURCE_DIR/tests/support/lttng_ust_trace.sh"
lttng_ust_trace sql_lttng_counters "100 2" vtid perf:thread:task-clock perf:thread:page-fault
# babeltrace2: "{ vtid = T, perf_thread_task_clock = V, perf_thread_page_fault = W }"
awk '{
	if (match($0, /vtid = [0-9]+/)) tid = substr($0, RSTART + 7, RLENGTH - 7)
	s = $0
	while (match(s, /perf_thread_[a-z_]+ = -?[0-9]+/)) {
		kv = substr(s, RSTART, RLENGTH); split(kv, a, " = ")
		printf "%s tid %s|%s\n", a[1], tid, a[2]
		s = substr(s, RSTART + RLENGTH)
	}
	if ($0 ~ / tk_test:tick: / && match($0, /\{ n = [0-9]+ \}/))
		printf "tk_test:tick.n|%s\n", substr($0, RSTART + 6, RLENGTH - 8)
}' "$tmp/bt.out" | sort >"$tmp/want"
[ -s "$tmp/want" ] || skip "babeltrace2 shows no perf counter context"
"$TK" sql -q --format csv "$tmp/trace" "
	SELECT t.name || '|' || CAST(c.value AS INTEGER) FROM counter c JOIN track t ON t.id = c.track
	WHERE t.type = 'counter'" | tail -n +2 | tr -d '"' | sort >"$tmp/got"
if ! diff -u "$tmp/want" "$tmp/got" >"$tmp/diff"; then
	echo "FAIL: counter rows differ from babeltrace2's context and payload values"
	head -20 "$tmp/diff"
	exit 1
fi
echo "ok: $(wc -l <"$tmp/want") counter values ($(cut -d'|' -f1 "$tmp/want" | sort -u | wc -l) tracks) = babeltrace2"
