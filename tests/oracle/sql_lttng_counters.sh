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
for tool in lttng lttng-sessiond babeltrace2 cc; do
	command -v "$tool" >/dev/null 2>&1 || skip "$tool not installed"
done
tmp=$(mktemp -d) || exit 1
session="tk-sqlc-$$"
started_pid=
cleanup() {
	lttng destroy "$session" >/dev/null 2>&1
	[ -n "$started_pid" ] && kill "$started_pid" 2>/dev/null && wait "$started_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
src="$TK_SOURCE_DIR/tests/ctf"
cc -O1 -I"$src" -o "$tmp/tk_app" "$src/tk_app.c" "$src/tk_tp.c" -llttng-ust -ldl -lpthread \
	>"$tmp/cc.log" 2>&1 || skip "cannot build the tracepoint provider (liblttng-ust-dev?): $(head -1 "$tmp/cc.log")"
if ! lttng list >/dev/null 2>&1; then
	lttng-sessiond >"$tmp/sessiond.log" 2>&1 &
	started_pid=$!
	i=0
	until lttng list >/dev/null 2>&1; do
		i=$((i + 1))
		[ $i -gt 50 ] && skip "lttng-sessiond does not start: $(tail -1 "$tmp/sessiond.log")"
		kill -0 "$started_pid" 2>/dev/null || skip "lttng-sessiond exited: $(tail -1 "$tmp/sessiond.log")"
		sleep 0.2
	done
fi
lttng create "$session" --output="$tmp/trace" >"$tmp/lttng.log" 2>&1 || skip "lttng create failed: $(tail -1 "$tmp/lttng.log")"
lttng enable-event --session="$session" -u 'tk_test:*' >>"$tmp/lttng.log" 2>&1 || skip "lttng enable-event failed"
lttng add-context --session="$session" -u -t vtid -t perf:thread:task-clock -t perf:thread:page-fault \
	>>"$tmp/lttng.log" 2>&1 || skip "lttng add-context perf:thread:* failed: $(tail -1 "$tmp/lttng.log")"
lttng start "$session" >>"$tmp/lttng.log" 2>&1 || skip "lttng start failed"
"$tmp/tk_app" 100 2
lttng stop "$session" >>"$tmp/lttng.log" 2>&1
lttng destroy "$session" >>"$tmp/lttng.log" 2>&1
[ -d "$tmp/trace" ] || skip "no trace written (no UST support here?)"
export LC_ALL=C
babeltrace2 "$tmp/trace" >"$tmp/bt.out" 2>/dev/null || skip "babeltrace2 cannot read the trace"
[ -s "$tmp/bt.out" ] || skip "the trace holds no events (UST tracing unavailable?)"
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
