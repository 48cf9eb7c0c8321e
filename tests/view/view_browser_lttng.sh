#!/usr/bin/env bash
# tracekit view of an LTTng-UST trace from the test data (lttng-crash: 400
# my_app:current_temp events with a temp field), in headless chromium:
# names and counts per event class and per stream = `tracekit stats`; the
# temp field is a counter track with one point per event; a clicked event
# shows the fields `tracekit print --format json` gives; keys; a selection's
# count = `tracekit report --state` over the same --begin/--end (+1: the
# report counts the intervals between successive events).
set -u
. "$TK_SOURCE_DIR/tests/view/lib.bash"
trace="$TK_TESTDATA/ctf/babeltrace/succeed/lttng-crash"
[ -d "$trace" ] || { echo "SKIP: $trace is missing"; exit 77; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
view_drive lttng "$trace"
"$TK" stats "$trace" >"$art/stats.txt" 2>/dev/null
awk '/events per class:/ {on=1; next} /events per stream:/ {on=0} on {print $2, $1}' "$art/stats.txt" | LC_ALL=C sort >"$work/names_want"
jq -r '.whole.names[] | "\(.[0]) \(.[1])"' "$J" | LC_ALL=C sort >"$work/names_got"
same_lines "$work/names_want" "$work/names_got" "events per name = tracekit stats" \
  "events per name differ from tracekit stats"
awk '/events per stream:/ {on=1; next} /^events:/ {on=0} on {print $1}' "$art/stats.txt" | LC_ALL=C sort >"$work/streams_want"
jq -r '.tracks[] | select(.group == "streams") | .count' "$J" | LC_ALL=C sort >"$work/streams_got"
same_lines "$work/streams_want" "$work/streams_got" "one track per stream, counts = tracekit stats" \
  "stream tracks differ from tracekit stats"
check '[.tracks[] | select(.kind == "counter" and .name == "my_app:current_temp.temp")] | length == 1 and .[0].count == 400' \
  "the temp field is a counter track of 400 points"
check '.timeMode.button == "wall clock" and (.timeMode.abs | test("^2019-08-15 [0-9:.]+ \\.\\. 2019-08-15 ")) and (.timeMode.rel | test("^-?0\\.[0-9]{9} "))' \
  "the time toggle shows wall-clock times (the trace's clock counts from the epoch)"
check_details
abs=$(jq -r .clicked.abs "$J")
"$TK" print --format json --begin "${abs}ns" --end "${abs}ns" "$trace" 2>/dev/null | jq -c '.payload' | head -1 >"$work/fields"
if [ -s "$work/fields" ] && jq -e --slurpfile f "$work/fields" '. as $d | $f[0] | to_entries | all(($d.details[.key]) == (.value | tostring))' "$J" >/dev/null; then
  echo "ok: details show the fields tracekit print gives the event"
else echo "FAIL: details differ from tracekit print: $(cat "$work/fields")"; fail=1; fi
check_keys
b=$(jq -r .selection.begin "$J"); e=$(jq -r .selection.end "$J")
"$TK" report --state my_app:current_temp --begin "${b}ns" --end "${e}ns" "$trace" >"$art/report.txt" 2>/dev/null
n=$(awk '$1 == "all" {print $2 + 1}' "$art/report.txt")
check '.sel.names == [["my_app:current_temp", $n, ""]]' "selection count = tracekit report --state --begin/--end ($n)" --arg n "${n:-none}"
check '.flame.weight == 0' "no samples, empty flame graph"
finish
