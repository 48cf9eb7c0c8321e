#!/bin/sh
# Oracle: a real LTTng-UST trace made here (tests/ctf/tk_app with the tiny
# tk_test tracepoint provider, 3 threads so several per-CPU streams are
# merged) must print byte for byte like babeltrace2 does. Starts a session
# daemon when none runs (and stops it again), traces into a temp dir.
# Exit 77 (skipped) with a message when LTTng cannot run here.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}"
skip() { echo "ctf_lttng: skipped: $*"; exit 77; }
for tool in lttng lttng-sessiond babeltrace2 cc; do
	command -v "$tool" >/dev/null 2>&1 || skip "$tool not installed"
done
tmp=$(mktemp -d) || exit 1
session="tk-oracle-$$"
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
lttng add-context --session="$session" -u -t vpid -t vtid -t procname >>"$tmp/lttng.log" 2>&1 || skip "lttng add-context failed"
lttng start "$session" >>"$tmp/lttng.log" 2>&1 || skip "lttng start failed"
"$tmp/tk_app" 300 3
lttng stop "$session" >>"$tmp/lttng.log" 2>&1
lttng destroy "$session" >>"$tmp/lttng.log" 2>&1
[ -d "$tmp/trace" ] || skip "no trace written (no UST support here?)"
export TZ=UTC LC_ALL=C
babeltrace2 "$tmp/trace" >"$tmp/bt.out" 2>"$tmp/bt.err" || skip "babeltrace2 cannot read the trace: $(tail -1 "$tmp/bt.err")"
[ -s "$tmp/bt.out" ] || skip "the trace holds no events (UST tracing unavailable?)"
"$TK" print --format babeltrace "$tmp/trace" >"$tmp/tk.out" 2>"$tmp/tk.err" || {
	echo "FAIL: tracekit exited with an error"; cat "$tmp/tk.err"; exit 1; }
if ! cmp -s "$tmp/bt.out" "$tmp/tk.out"; then
	echo "FAIL: output differs from babeltrace2"
	diff "$tmp/bt.out" "$tmp/tk.out" | head -10
	exit 1
fi
# --begin / --end (seconds.ns from the clock origin for both tools) around
# the middle event: same lines as babeltrace2's
t=$("$TK" print --format json --limit $(( $(wc -l <"$tmp/bt.out") / 2 )) "$tmp/trace" | tail -1 |
	sed -n 's/.*"time":"\{0,1\}\([0-9]*\).*/\1/p')
at=
if [ -n "$t" ]; then
	at=$((t / 1000000000)).$(printf '%09d' $((t % 1000000000)))
	for opt in begin end; do
		babeltrace2 --$opt="$at" "$tmp/trace" >"$tmp/bt.$opt" 2>/dev/null
		"$TK" print --format babeltrace --$opt "$at" "$tmp/trace" >"$tmp/tk.$opt" 2>"$tmp/tk.err" || {
			echo "FAIL: --$opt $at: tracekit exited with an error"; cat "$tmp/tk.err"; exit 1; }
		if ! cmp -s "$tmp/bt.$opt" "$tmp/tk.$opt"; then
			echo "FAIL: --$opt $at differs from babeltrace2"
			diff "$tmp/bt.$opt" "$tmp/tk.$opt" | head -5
			exit 1
		fi
	done
fi
# the decode-only path sees the same number of events
n=$(wc -l <"$tmp/bt.out")
"$TK" stats "$tmp/trace" >"$tmp/stats" 2>&1 || { echo "FAIL: stats"; cat "$tmp/stats"; exit 1; }
grep -q "^events: $n\$" "$tmp/stats" || { echo "FAIL: stats does not count $n events"; cat "$tmp/stats"; exit 1; }
echo "ctf_lttng: $n events identical to babeltrace2${at:+, also with --begin/--end $at}"
