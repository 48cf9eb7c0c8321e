#!/bin/sh
# `tracekit stats` (the lean decode and its fast path, ctf_reader_span)
# against babeltrace2 (testdata/ctf/expected): for every trace listed in
# expected/RC, status 0 -> stats exits 0 and counts as many events as
# babeltrace2 printed lines (NAME.pretty); status 1 -> stats exits 1 with
# an error on stderr, like the full decode.
set -u
: "${TK:?}" "${TK_TESTDATA:?}" "${TK_SOURCE_DIR:?}"
. "$TK_SOURCE_DIR/tests/support/ctf_expected.sh"
ctf_expected_setup
while read -r name rc path; do
	[ "$path" != "?" ] || { echo "FAIL $name: trace directory not found"; fail=$((fail + 1)); continue; }
	case $name in *meta-ctx-sequence) continue ;; esac # babeltrace2 aborts on it
	exp="expected/$name.pretty"
	n=0
	[ -f "$exp" ] && n=$(wc -l <"$exp" | tr -d ' ')
	"$TK" stats "$path" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$rc" = 0 ]; then
		if [ "$got" = 0 ] && grep -q "^events: $n\$" "$tmp/out"; then
			pass=$((pass + 1))
		else
			echo "FAIL $name: exit $got, expected events: $n"
			sed -n '/^events:/p' "$tmp/out"
			head -3 "$tmp/err"
			fail=$((fail + 1))
		fi
	elif [ "$got" = 1 ] && [ -s "$tmp/err" ]; then
		pass=$((pass + 1))
	else
		echo "FAIL $name: exit $got (babeltrace2: $rc), stderr:"
		head -3 "$tmp/err"
		fail=$((fail + 1))
	fi
done <"$tmp/traces"
echo "ctf_stats_counts: $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
