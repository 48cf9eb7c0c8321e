#!/usr/bin/env bash
# Perf sample periods as counter tracks in tracekit view: the page of a
# perf recording with varying periods (cycles) holds one "<event> period"
# track whose samples (time, value) equal the samples `tracekit print
# --format json` gives (time and period), in order; hovering a sample on
# the drawn track shows its value.
set -u
. "$TK_SOURCE_DIR/tests/view/lib.bash"
in=$TK_TESTDATA/perf/perfparser/vector_static_gcc__perf.data
[ -f "$in" ] || { echo "SKIP: $in is missing"; exit 77; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
VIEW_DRIVE_ARGS=--counters view_drive counters "$in"
"$TK" print --format json "$in" | jq -r 'select(.type == "sample" and .period != null) | "\(.event) period \(.time) \(.period)"' >"$work/want"
jq -r '.counters[] | select(.name | endswith(" period")) | . as $c | range(0; .n) | "\($c.name) \($c.times[.]) \($c.values[.])"' "$J" >"$work/got"
if [ -s "$work/want" ] && cmp -s "$work/want" "$work/got"; then
  echo "ok: the period counter track = print --format json ($(wc -l <"$work/want") samples, $(cut -d' ' -f4 "$work/want" | sort -u | wc -l) values)"
else echo "FAIL: the period counter track differs from print --format json"; diff "$work/want" "$work/got" | head -5; fail=1; fi
check '[.counters[] | select(.name | endswith(" period")) | .group] | unique == ["counters"]' "period tracks are in the counters group"
check '[.counters[] | select(.name | endswith(" period")) | .hover as $h | .values[$h.i] as $v
        | ($h.tooltip != null and ($h.tooltip | contains("value \($v)")))] | (length > 0 and all)' \
  "hovering a period sample shows its value"
finish
