#!/bin/sh
# CTF pretty output against babeltrace2's (testdata/ctf/expected, made with
# TZ=UTC LC_ALL=C from testdata/ctf). For every trace listed in expected/RC:
# status 0 -> stdout must equal NAME.pretty byte for byte;
# status 1 -> we must exit 1 with an error on stderr, after printing the
# events babeltrace2 printed before the damage (NAME.pretty is a prefix).
# Also: succeed/meta-ctx-sequence (babeltrace2 2.0.4 aborts on it) must
# exit 0 with no output.
set -u
: "${TK:?}" "${TK_TESTDATA:?}" "${TK_SOURCE_DIR:?}"
. "$TK_SOURCE_DIR/tests/support/ctf_expected.sh"
ctf_expected_setup
while read -r name rc path; do
	if [ "$path" = "?" ]; then
		echo "FAIL $name: trace directory not found"
		fail=$((fail + 1))
		continue
	fi
	exp="expected/$name.pretty"
	if [ "$rc" = 0 ]; then
		ctf_expected_same "$name" "$path" "$exp" "expected/$name.stderr"
		continue
	fi
	[ -f "$exp" ] || exp=/dev/null # babeltrace2 printed nothing
	"$TK" print --format babeltrace "$path" >"$tmp/out" 2>"$tmp/err"
	got=$?
	n=$(wc -c <"$exp")
	if [ "$got" = 1 ] && [ -s "$tmp/err" ] && head -c "$n" "$tmp/out" | cmp -s - "$exp"; then
		pass=$((pass + 1))
	else
		echo "FAIL $name: exit $got (want 1 with an error after the valid events)"
		diff "$tmp/out" "$exp" | head -5
		head -3 "$tmp/err"
		fail=$((fail + 1))
	fi
done <"$tmp/traces"
# babeltrace2 2.0.4 aborts on this metadata; babeltrace 1 accepts it.
"$TK" print --format babeltrace babeltrace/succeed/meta-ctx-sequence >"$tmp/out" 2>"$tmp/err"
got=$?
if [ "$got" = 0 ] && [ ! -s "$tmp/out" ]; then
	pass=$((pass + 1))
else
	echo "FAIL meta-ctx-sequence: exit $got, $(wc -c <"$tmp/out") bytes of output"
	head -3 "$tmp/err"
	fail=$((fail + 1))
fi
echo "ctf_babeltrace: $pass passed, $fail failed"
[ "$fail" = 0 ]
