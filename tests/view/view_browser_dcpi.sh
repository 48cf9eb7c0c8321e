#!/usr/bin/env bash
# tracekit view of DCPI profiles (two from the test data, muxed into one
# page), in headless chromium: one track per profile event with one entry
# per address (= `tracekit stats` addresses), the flame graph weighs the
# samples as `tracekit stats` and `tracekit report` count them.
set -u
. "$TK_SOURCE_DIR/tests/view/lib.bash"
a="$TK_TESTDATA/dcpi/simple.prof" b="$TK_TESTDATA/dcpi/version-006.prof"
[ -f "$a" ] && [ -f "$b" ] || { echo "SKIP: DCPI test data missing"; exit 77; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
view_drive dcpi "$a" "$b"
"$TK" stats "$a" "$b" >"$art/stats.txt"
awk '$1 ~ /^[0-9]+$/ && NF >= 6 {print $4, $2}' "$art/stats.txt" | LC_ALL=C sort >"$work/want"
jq -r '.tracks[] | select(.kind != "counter") | "\(.name) \(.count)"' "$J" | LC_ALL=C sort >"$work/got"
same_lines "$work/want" "$work/got" "one track per profile event, entries = addresses of tracekit stats" \
  "tracks differ from tracekit stats"
samples=$(awk '$1 == "total:" {s += $4} END {print s}' "$art/stats.txt")
check '.wholeFlame.weight == ($s | tonumber)' "flame graph weight = tracekit stats samples ($samples)" --arg s "$samples"
"$TK" report "$a" "$b" >"$art/report.txt"
rep=$(awk '/^------/ {getline; s += $2} END {print s}' "$art/report.txt")
check '.wholeFlame.weight == ($s | tonumber)' "flame graph weight = tracekit report totals ($rep)" --arg s "$rep"
check_details same-time
check '.details["weight (period)"] != null' "a sample's details show its weight"
finish
