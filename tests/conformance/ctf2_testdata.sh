#!/bin/sh
# CTF 2 traces of testdata/ctf2 (see its README.md), each as the README says:
# - babeltrace-2.1/succeed/NAME (all but fl-bm and meta-clk-cls-before-
#   trace-cls) and the four 2023-draft traces print exactly as their CTF 1.8
#   twins' expected text (testdata/ctf/expected/babeltrace_succeed_NAME.pretty,
#   made by babeltrace2), with the same discarded-items warnings;
# - succeed/fl-bm prints as fl-bm.pretty-expect (babeltrace 2.1's text);
# - succeed/meta-clk-cls-before-trace-cls: accepted, no events;
# - fail/*: exit 1 with "fragment N" or "offset 0x" in the message;
# - intersection/3eventsintersect reads as its CTF 1.8 twin;
# - trace-with-index: its index files serve --begin (same events as a
#   filtered full read);
# - every twin's `print --format json` (the model adapter) equals its twin's.
set -u
: "${TK:?}" "${TK_TESTDATA:?}" "${TK_SOURCE_DIR:?}"
C2="$TK_TESTDATA/ctf2"
EXP="$TK_TESTDATA/ctf/expected"
[ -f "$C2/README.md" ] && [ -d "$EXP" ] || {
	echo "no CTF 2 test data in $C2: skipped"
	exit 77
}
export TZ=UTC LC_ALL=C
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# Same text and warnings as the expected files, and exit 0. babeltrace2
# names streams by the path it was given: the twins' expected warnings say
# babeltrace/succeed/..., ours succeed/... (run from babeltrace-2.1/).
. "$TK_SOURCE_DIR/tests/support/ctf_expected.sh"
same() { # name trace expected stderr-expected
	ctf_expected_same "$@" 's| "babeltrace/succeed/| "succeed/|'
}

cd "$C2/babeltrace-2.1" || exit 1
n_twins=0
for d in succeed/*/; do
	name=$(basename "$d")
	case "$name" in
	fl-bm | meta-clk-cls-before-trace-cls) continue ;;
	esac
	n_twins=$((n_twins + 1))
	same "$name" "succeed/$name" "$EXP/babeltrace_succeed_$name.pretty" \
		"$EXP/babeltrace_succeed_$name.stderr"
done
# the README counts 25 twins: a missing one is a failure, not a pass
if [ "$n_twins" != 25 ]; then
	echo "FAIL: $n_twins twin traces in babeltrace-2.1/succeed, want 25"
	fail=$((fail + 1))
fi
for name in succeed1 smalltrace meta-variant-no-underscore trace-with-index; do
	same "draft:$name" "$C2/$name" "$EXP/babeltrace_succeed_$name.pretty" /dev/null
done
same fl-bm succeed/fl-bm fl-bm.pretty-expect /dev/null
same 3eventsintersect intersection/3eventsintersect \
	"$EXP/babeltrace_intersection_3eventsintersect.pretty" /dev/null

"$TK" print --format babeltrace succeed/meta-clk-cls-before-trace-cls >"$tmp/out" 2>"$tmp/err"
got=$?
if [ "$got" = 0 ] && [ ! -s "$tmp/out" ]; then
	pass=$((pass + 1))
else
	echo "FAIL meta-clk-cls-before-trace-cls: exit $got"
	head -3 "$tmp/err"
	fail=$((fail + 1))
fi

for d in fail/*/; do
	name=$(basename "$d")
	"$TK" print --format babeltrace "$d" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" = 1 ] && grep -Eq 'fragment [0-9]|offset 0x' "$tmp/err" &&
		! grep -qi 'sanitizer\|abort' "$tmp/err"; then
		pass=$((pass + 1))
	else
		echo "FAIL fail/$name: exit $got (want 1 naming the fragment or offset)"
		head -3 "$tmp/err"
		fail=$((fail + 1))
	fi
done

# the model adapter: every twin's events as JSON lines equal its CTF 1.8
# twin's (the same model values, through the same source)
for d in succeed/*/; do
	name=$(basename "$d")
	[ -d "$TK_TESTDATA/ctf/babeltrace/succeed/$name" ] || continue
	"$TK" print --format json "$d" >"$tmp/j2" 2>/dev/null
	"$TK" print --format json "$TK_TESTDATA/ctf/babeltrace/succeed/$name" >"$tmp/j1" 2>/dev/null
	if cmp -s "$tmp/j1" "$tmp/j2"; then
		pass=$((pass + 1))
	else
		echo "FAIL json $name: the model events differ from the CTF 1.8 twin's"
		diff "$tmp/j1" "$tmp/j2" | head -4
		fail=$((fail + 1))
	fi
done

# --begin on the draft trace with index files: the index lets whole
# packets be skipped; the events must be those of a filtered full read.
t="$C2/trace-with-index"
"$TK" print --format json "$t" >"$tmp/all" 2>/dev/null
# (times are JSON strings beyond 2^53; --begin takes ns with a unit)
mid=$(sed -n "$(($(wc -l <"$tmp/all") / 2))p" "$tmp/all" | sed 's/.*"time":"\{0,1\}\([0-9]*\).*/\1/')
case "$mid" in
'' | *[!0-9]*)
	echo "FAIL trace-with-index: no time in the JSON output"
	fail=$((fail + 1))
	;;
*)
	"$TK" print --format json --begin "${mid}ns" "$t" >"$tmp/begin" 2>"$tmp/err"
	# string comparison of equal-length decimal times (no float rounding)
	awk -v m="$mid" 'match($0, /"time":"?[0-9]+/) {
		v = substr($0, RSTART + 7, RLENGTH - 7); sub(/^"/, "", v)
		if (length(v) > length(m) || (length(v) == length(m) && v >= m)) print }' "$tmp/all" >"$tmp/want"
	if [ -s "$tmp/want" ] && [ "$(wc -l <"$tmp/want")" -lt "$(wc -l <"$tmp/all")" ] &&
		cmp -s "$tmp/begin" "$tmp/want"; then
		pass=$((pass + 1))
	else
		echo "FAIL trace-with-index --begin $mid: $(wc -l <"$tmp/begin") events, want $(wc -l <"$tmp/want")"
		head -3 "$tmp/err"
		fail=$((fail + 1))
	fi
	;;
esac

echo "ctf2_testdata: $pass passed, $fail failed"
[ "$fail" = 0 ]
