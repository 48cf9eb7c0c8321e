#!/usr/bin/env bash
# CTF 2 writer and reader against oracles:
# 1. every CTF 1.8 trace of testdata/ctf/babeltrace/succeed converted with
#    --to ctf2 prints (print --format babeltrace) exactly as its --to ctf
#    conversion, and converting the CTF 2 trace back to CTF 1.8 prints the
#    same again; babeltrace2 (which reads CTF 1.8 only) prints that
#    CTF 1.8 trace as we print the CTF 2 one;
# 2. perf.data -> CTF 2: for a few perf files of the test data that
#    `perf data convert --to-ctf` converts, our text of our CTF 2 trace
#    equals babeltrace2's text of perf's CTF.
# Part 2 is skipped without perf; babeltrace2 comparisons without babeltrace2.
set -u
: "${TK:?}" "${TK_TESTDATA:?}" "${TK_SOURCE_DIR:?}"
export TZ=UTC LC_ALL=C
[ -d "$TK_TESTDATA/ctf/babeltrace/succeed" ] || { echo "SKIP: no CTF test data"; exit 77; }
have_bt=0; command -v babeltrace2 >/dev/null && have_bt=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0 checked=0

for d in "$TK_TESTDATA"/ctf/babeltrace/succeed/*/; do
	n=$(basename "$d")
	rm -rf "$work/c1" "$work/c2" "$work/back"
	if ! "$TK" convert "$d" -o "$work/c1" --to ctf 2>/dev/null; then
		continue # the CTF 1.8 writer refuses it: nothing to compare
	fi
	checked=$((checked + 1))
	if ! "$TK" convert "$d" -o "$work/c2" --to ctf2 2>"$work/err" ||
		! "$TK" convert "$work/c2" -o "$work/back" --ctf-version 1 2>>"$work/err"; then
		echo "FAIL $n: $(grep -v warning "$work/err" | head -1)"
		failed=$((failed + 1))
		continue
	fi
	head -c 1 "$work/c2/metadata" | od -An -tx1 | grep -q 1e || {
		echo "FAIL $n: --to ctf2 did not write JSON metadata"
		failed=$((failed + 1))
		continue
	}
	"$TK" print -f babeltrace "$work/c1" >"$work/p1" 2>/dev/null
	"$TK" print -f babeltrace "$work/c2" >"$work/p2" 2>/dev/null
	"$TK" print -f babeltrace "$work/back" >"$work/p3" 2>/dev/null
	ok=1
	cmp -s "$work/p1" "$work/p2" || { echo "FAIL $n: CTF 2 prints differently from CTF 1.8"; diff "$work/p1" "$work/p2" | head -4; ok=0; }
	cmp -s "$work/p2" "$work/p3" || { echo "FAIL $n: CTF 2 -> CTF 1.8 prints differently"; diff "$work/p2" "$work/p3" | head -4; ok=0; }
	if [ $have_bt = 1 ] && [ $ok = 1 ]; then
		babeltrace2 "$work/back" >"$work/bt" 2>/dev/null
		cmp -s "$work/bt" "$work/p2" || { echo "FAIL $n: babeltrace2 reads the round trip differently"; diff "$work/bt" "$work/p2" | head -4; ok=0; }
	fi
	[ $ok = 1 ] && echo "ok   $n ($(wc -l <"$work/p2") events)" || failed=$((failed + 1))
done

# packetized CTF 2 metadata (the 37-byte packet headers of CTF 1.8, with
# JSON inside) reads back as the plain one
d="$TK_TESTDATA/ctf/babeltrace/succeed/wk-heartbeat-u"
rm -rf "$work/c2" "$work/pk"
"$TK" convert "$d" -o "$work/c2" --to ctf2 2>/dev/null
"$TK" convert "$d" -o "$work/pk" --to ctf2 --ctf-packetized-metadata 2>/dev/null
"$TK" print -f babeltrace "$work/c2" >"$work/p1" 2>&1
"$TK" print -f babeltrace "$work/pk" >"$work/p2" 2>&1
checked=$((checked + 1))
if head -c 4 "$work/pk/metadata" | od -An -tx1 | grep -q '57 1d d1 75' && [ -s "$work/p1" ] &&
	cmp -s "$work/p1" "$work/p2"; then
	echo "ok   packetized CTF 2 metadata"
else
	echo "FAIL packetized CTF 2 metadata"
	head -2 "$work/p2"
	failed=$((failed + 1))
fi

# a CTF 2 trace of the classes CTF 1.8 lacks (LEB128, blobs, optionals,
# UTF-16/32, float16/128, bit maps: the fuzz corpus's metadata + stream),
# converted to CTF 1.8: babeltrace2 reads it as we do, and the values the
# CTF 1.8 form keeps as they were print as in the CTF 2 trace
if [ $have_bt = 1 ]; then
	mkdir -p "$work/all2"
	/usr/bin/python3 - "$TK_SOURCE_DIR/tests/fuzz/corpus/ctf2_stream/meta_and_stream" "$work/all2" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
meta, stream = data.split(b"\0", 1)
open(sys.argv[2] + "/metadata", "wb").write(meta)
open(sys.argv[2] + "/stream", "wb").write(stream)
PY
	rm -rf "$work/all1"
	checked=$((checked + 1))
	"$TK" print -f babeltrace "$work/all2" >"$work/q2" 2>&1
	if "$TK" convert "$work/all2" -o "$work/all1" --to ctf 2>"$work/err"; then
		"$TK" print -f babeltrace "$work/all1" >"$work/q1" 2>&1
		babeltrace2 "$work/all1" >"$work/qb" 2>&1
		a=$(sed -n '1s/.*\(u = .*\), b = .*/\1/p' "$work/q2")
		c=$(sed -n '1s/.*\(s16 = .*\), o = .*/\1/p' "$work/q2")
		if [ -n "$a" ] && [ -n "$c" ] && cmp -s "$work/q1" "$work/qb" &&
			grep -qF "$a" "$work/qb" && grep -qF "$c" "$work/qb"; then
			echo "ok   CTF 2 classes without a CTF 1.8 form -> CTF 1.8 ($(wc -l <"$work/qb") events)"
		else
			echo "FAIL CTF 2 classes -> CTF 1.8"
			diff "$work/q1" "$work/qb" | head -4
			failed=$((failed + 1))
		fi
	else
		echo "FAIL CTF 2 classes -> CTF 1.8: $(head -1 "$work/err")"
		failed=$((failed + 1))
	fi
fi

if command -v perf >/dev/null && [ $have_bt = 1 ]; then
	nperf=0
	while IFS= read -r f && [ $nperf -lt 6 ]; do
		rm -rf "$work/perf" "$work/ours"
		timeout 120 perf data convert --to-ctf="$work/perf" -i "$f" >/dev/null 2>&1 || continue
		nperf=$((nperf + 1))
		checked=$((checked + 1))
		name=${f#"$TK_TESTDATA"/}
		if ! "$TK" convert "$f" -o "$work/ours" --to ctf2 2>"$work/err"; then
			echo "FAIL $name: $(head -1 "$work/err")"
			failed=$((failed + 1))
			continue
		fi
		"$TK" print -f babeltrace "$work/ours" >"$work/got" 2>/dev/null
		babeltrace2 "$work/perf" >"$work/want" 2>/dev/null
		if [ -s "$work/want" ] && cmp -s "$work/got" "$work/want"; then
			echo "ok   $name -> CTF 2 ($(wc -l <"$work/want") events)"
		else
			echo "FAIL $name -> CTF 2"
			diff "$work/got" "$work/want" | head -4 | cut -c1-300
			failed=$((failed + 1))
		fi
	done < <(find "$TK_TESTDATA/perf" -type f \( -name '*.data' -o -name 'perf.data*' \) -size -2M | sort)
else
	echo "SKIP perf.data -> CTF 2 part: perf or babeltrace2 missing"
fi
echo "ctf2_roundtrip: $checked checked, $failed failed"
[ $checked -gt 0 ] && [ $failed = 0 ]
