#!/bin/sh
# ns per event of tracekit's in-process logger, an elog-style fetch-add
# ring and LTTng-UST tracepoints (same payload: a u32 and two u64), 1 and 2
# threads. LTTng is measured while a session records the events (a channel
# of 8 x 4 MiB sub-buffers, discard mode), as an application would be
# traced; without a session a tracepoint is only a predicted branch. After
# them: TK_LOG on the coarse clock and with .prefault, and what the other
# clock reads cost (log_bench.c says which row is what).
#
#   bench/log_bench.sh [BUILD_DIR] [EVENTS_PER_THREAD]
set -u
build=${1:-build}
events=${2:-4000000}
bin="$build/bin/log_bench"
[ -x "$bin" ] || { echo "build $bin first (cmake --build $build --target log_bench)"; exit 1; }
tmp=$(mktemp -d) || exit 1
session="tk-log-bench-$$"
started=
cleanup() {
	lttng destroy "$session" >/dev/null 2>&1
	[ -n "$started" ] && kill "$started" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
if command -v lttng >/dev/null 2>&1; then
	if ! lttng list >/dev/null 2>&1; then
		lttng-sessiond >"$tmp/sessiond.log" 2>&1 &
		started=$!
		i=0
		until lttng list >/dev/null 2>&1 || [ $i -gt 50 ]; do i=$((i + 1)); sleep 0.2; done
	fi
	lttng create "$session" --output="$tmp/trace" >/dev/null &&
		lttng enable-channel -u --subbuf-size=4M --num-subbuf=8 --session="$session" ch >/dev/null &&
		lttng enable-event -u --channel=ch --session="$session" 'tk_bench:*' >/dev/null &&
		lttng start "$session" >/dev/null || echo "(no LTTng session: its figures are of a disabled tracepoint)"
else
	echo "(lttng not installed: its figures are of a disabled tracepoint)"
fi
"$bin" "$events"
lttng stop "$session" >/dev/null 2>&1
if command -v babeltrace2 >/dev/null 2>&1 && [ -d "$tmp/trace" ]; then
	echo "LTTng session recorded $(babeltrace2 "$tmp/trace" 2>/dev/null | wc -l) events"
fi
