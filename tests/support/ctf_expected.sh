# Sourced by the conformance scripts that go through babeltrace2's
# expected outputs of the CTF test data (tests/conformance/ctf_babeltrace.sh,
# ctf_stats_counts.sh, ctf2_testdata.sh): the setup and the comparison they
# share. POSIX sh.
#
# ctf_expected_setup: CTF=$TK_TESTDATA/ctf (exits 77 when expected/RC,
# the list of traces with babeltrace2's exit status, is missing), the
# locale and time zone the expected outputs were made with, a temporary
# directory $tmp removed at exit, the working directory $CTF, the
# counters pass=0 fail=0 for the caller's checks, and $tmp/traces:
# "NAME RC PATH" a line for every trace of expected/RC (NAME is PATH with
# / -> _, as expected/ names its files; PATH "?" when no trace directory
# has that name).
ctf_expected_setup() {
	CTF="$TK_TESTDATA/ctf"
	[ -f "$CTF/expected/RC" ] || { echo "no CTF test data in $CTF: skipped"; exit 77; }
	export TZ=UTC LC_ALL=C
	tmp=$(mktemp -d) || exit 1
	trap 'rm -rf "$tmp"' EXIT
	cd "$CTF" || exit 1
	pass=0 fail=0
	find babeltrace barectf -type d | while read -r d; do
		printf '%s %s\n' "$(printf '%s' "$d" | tr / _)" "$d"
	done >"$tmp/map"
	awk 'NR == FNR { path[$1] = $2; next } { print $1, $2, ($1 in path ? path[$1] : "?") }' \
		"$tmp/map" expected/RC >"$tmp/traces"
}

# ctf_expected_same NAME TRACE EXPECTED STDERR [SED]: `tracekit print
# --format babeltrace TRACE` exits 0 and prints EXPECTED (babeltrace2's
# text; no such file: nothing) with the discarded-items warnings of
# babeltrace2's STDERR, in order, after the "WARNING: " / "tracekit:
# warning: " prefixes (and the sed script SED on babeltrace2's: it names
# streams by the path it was given). Adds 1 to pass or to fail (printing
# why); uses $tmp.
ctf_expected_same() {
	exp=$3
	[ -f "$exp" ] || exp=/dev/null # babeltrace2 printed nothing
	"$TK" print --format babeltrace "$2" >"$tmp/out" 2>"$tmp/err"
	got=$?
	grep '^WARNING: ' "$4" 2>/dev/null | sed "s/^WARNING: //; ${5:-}" >"$tmp/wexp"
	sed -n 's/^tracekit: warning: \(Tracer .*discarded\)/\1/p' "$tmp/err" >"$tmp/wgot"
	if [ "$got" = 0 ] && cmp -s "$tmp/out" "$exp" && cmp -s "$tmp/wexp" "$tmp/wgot"; then
		pass=$((pass + 1))
	else
		echo "FAIL $1: exit $got (want 0), output differs from $exp:"
		diff "$tmp/out" "$exp" | head -5
		diff "$tmp/wgot" "$tmp/wexp" | head -5
		head -3 "$tmp/err"
		fail=$((fail + 1))
	fi
}
