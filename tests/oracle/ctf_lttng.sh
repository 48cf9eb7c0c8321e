#!/bin/sh
# Oracle: a real LTTng-UST trace made here (tests/ctf/tk_app with the tiny
# tk_test tracepoint provider, 3 threads so several per-CPU streams are
# merged) must print byte for byte like babeltrace2 does. Starts a session
# daemon when none runs (and stops it again), traces into a temp dir.
# Exit 77 (skipped) with a message when LTTng cannot run here.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}"
export TZ=UTC LC_ALL=C
. "$TK_SOURCE_DIR/tests/support/lttng_ust_trace.sh"
lttng_ust_trace ctf_lttng "300 3" vpid vtid procname
"$TK" print --format babeltrace "$tmp/trace" >"$tmp/tk.out" 2>"$tmp/tk.err" || {
	echo "FAIL: tracekit exited with an error"; cat "$tmp/tk.err"; exit 1; }
if ! cmp -s "$tmp/bt.out" "$tmp/tk.out"; then
	echo "FAIL: output differs from babeltrace2"
	diff "$tmp/bt.out" "$tmp/tk.out" | head -10
	exit 1
fi
# two lanes (src/output/print_lanes.h: each formats every other chunk of
# events), forced on this small trace, in chunks of 8 events: the same bytes
TRACEKIT_LANES=2 TRACEKIT_LANE_CHUNK=3 "$TK" print --format babeltrace "$tmp/trace" \
	>"$tmp/tk2.out" 2>"$tmp/tk.err" || {
	echo "FAIL: two lanes: tracekit exited with an error"; cat "$tmp/tk.err"; exit 1; }
if ! cmp -s "$tmp/bt.out" "$tmp/tk2.out"; then
	echo "FAIL: two lanes: output differs from babeltrace2"
	diff "$tmp/bt.out" "$tmp/tk2.out" | head -10
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
echo "ctf_lttng: $n events identical to babeltrace2 (one lane and two)${at:+, also with --begin/--end $at}"
