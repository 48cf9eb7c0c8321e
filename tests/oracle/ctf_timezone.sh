#!/bin/sh
# Oracle: babeltrace2 prints wall-clock times in local time (TZ honoured) or
# UTC with --clock-gmt; tracekit must print the same bytes in several zones.
set -u
: "${TK:?}" "${TK_TESTDATA:?}"
command -v babeltrace2 >/dev/null 2>&1 || { echo "ctf_timezone: skipped: babeltrace2 not installed"; exit 77; }
CTF="$TK_TESTDATA/ctf"
[ -d "$CTF/babeltrace" ] || { echo "ctf_timezone: skipped: no CTF test data"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
for trace in babeltrace/succeed/wk-heartbeat-u babeltrace/succeed/multi-domains babeltrace/packet-seq-num/2-lost-before-last; do
	for tz in America/New_York Asia/Kolkata Australia/Lord_Howe; do
		for gmt in "" --clock-gmt; do
			n=$((n + 1))
			(cd "$CTF" && TZ=$tz babeltrace2 $gmt "$trace" >"$tmp/bt" 2>/dev/null)
			(cd "$CTF" && TZ=$tz "$TK" print --format babeltrace $gmt "$trace" >"$tmp/tk" 2>/dev/null)
			if ! cmp -s "$tmp/bt" "$tmp/tk"; then
				echo "FAIL $trace TZ=$tz $gmt"
				diff "$tmp/bt" "$tmp/tk" | head -3
				fail=$((fail + 1))
			fi
		done
	done
done
echo "ctf_timezone: $((n - fail)) of $n identical"
[ "$fail" = 0 ]
