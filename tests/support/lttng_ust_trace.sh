# Sourced by the oracles that record a live LTTng-UST trace and read it
# with babeltrace2 (tests/oracle/ctf_lttng.sh, sql_lttng_counters.sh): the
# setup they share. POSIX sh (ctf_lttng.sh runs under /bin/sh).
#
# lttng_ust_trace NAME APP-ARGS CONTEXT...: checks for lttng,
# lttng-sessiond, babeltrace2 and cc, builds tests/ctf/tk_app (the tiny
# tk_test tracepoint provider) into a new temporary directory $tmp,
# starts a session daemon when none runs, records `tk_app APP-ARGS` with
# the given contexts (`lttng add-context -u -t CONTEXT` each) into
# $tmp/trace, and prints the trace with babeltrace2 (TZ and LC_ALL as
# the caller set them) into $tmp/bt.out. Exits 77 with "NAME: skipped:
# WHY" when any step cannot run here; removes $tmp (and stops what it
# started) at exit.
: "${TK_SOURCE_DIR:?}"

lttng_ust_skip() {
	echo "$lttng_ust_name: skipped: $*"
	exit 77
}

lttng_ust_cleanup() {
	lttng destroy "$lttng_ust_session" >/dev/null 2>&1
	[ -n "$lttng_ust_sessiond" ] && kill "$lttng_ust_sessiond" 2>/dev/null &&
		wait "$lttng_ust_sessiond" 2>/dev/null
	rm -rf "$tmp"
}

lttng_ust_trace() {
	lttng_ust_name=$1 lttng_ust_app_args=$2
	shift 2
	for tool in lttng lttng-sessiond babeltrace2 cc; do
		command -v "$tool" >/dev/null 2>&1 || lttng_ust_skip "$tool not installed"
	done
	tmp=$(mktemp -d) || exit 1
	lttng_ust_session="tk-$lttng_ust_name-$$" lttng_ust_sessiond=
	trap lttng_ust_cleanup EXIT
	src="$TK_SOURCE_DIR/tests/ctf"
	cc -O1 -I"$src" -o "$tmp/tk_app" "$src/tk_app.c" "$src/tk_tp.c" -llttng-ust -ldl -lpthread \
		>"$tmp/cc.log" 2>&1 ||
		lttng_ust_skip "cannot build the tracepoint provider (liblttng-ust-dev?): $(head -1 "$tmp/cc.log")"
	if ! lttng list >/dev/null 2>&1; then
		lttng-sessiond >"$tmp/sessiond.log" 2>&1 &
		lttng_ust_sessiond=$!
		i=0
		until lttng list >/dev/null 2>&1; do
			i=$((i + 1))
			[ $i -gt 50 ] && lttng_ust_skip "lttng-sessiond does not start: $(tail -1 "$tmp/sessiond.log")"
			kill -0 "$lttng_ust_sessiond" 2>/dev/null ||
				lttng_ust_skip "lttng-sessiond exited: $(tail -1 "$tmp/sessiond.log")"
			sleep 0.2
		done
	fi
	log="$tmp/lttng.log"
	lttng create "$lttng_ust_session" --output="$tmp/trace" >"$log" 2>&1 ||
		lttng_ust_skip "lttng create failed: $(tail -1 "$log")"
	lttng enable-event --session="$lttng_ust_session" -u 'tk_test:*' >>"$log" 2>&1 ||
		lttng_ust_skip "lttng enable-event failed"
	for c in "$@"; do
		lttng add-context --session="$lttng_ust_session" -u -t "$c" >>"$log" 2>&1 ||
			lttng_ust_skip "lttng add-context -t $c failed: $(tail -1 "$log")"
	done
	lttng start "$lttng_ust_session" >>"$log" 2>&1 || lttng_ust_skip "lttng start failed"
	# shellcheck disable=SC2086 # the app's arguments, split
	"$tmp/tk_app" $lttng_ust_app_args
	lttng stop "$lttng_ust_session" >>"$log" 2>&1
	lttng destroy "$lttng_ust_session" >>"$log" 2>&1
	[ -d "$tmp/trace" ] || lttng_ust_skip "no trace written (no UST support here?)"
	babeltrace2 "$tmp/trace" >"$tmp/bt.out" 2>"$tmp/bt.err" ||
		lttng_ust_skip "babeltrace2 cannot read the trace: $(tail -1 "$tmp/bt.err")"
	[ -s "$tmp/bt.out" ] || lttng_ust_skip "the trace holds no events (UST tracing unavailable?)"
}
