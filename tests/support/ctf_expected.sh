# Sourced by the conformance scripts that go through babeltrace2's
# expected outputs of the CTF test data (tests/conformance/ctf_babeltrace.sh,
# ctf_stats_counts.sh): the setup they share. POSIX sh.
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
