#!/usr/bin/env bash
# tracekit view of VPP's CPEL file from the test data, in headless chromium:
# one track per CPEL track, names and counts per event code and per track =
# `tracekit stats`; a clicked event's fields = `tracekit print --format
# json`; keys; a selection's counts per track = `tracekit report --state`
# over the same --begin/--end (+1 per track: the report counts intervals).
set -u
. "$TK_SOURCE_DIR/tests/view/lib.bash"
f="$TK_TESTDATA/cpel/vpp-new.cpel"
[ -f "$f" ] || { echo "SKIP: $f is missing"; exit 77; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
view_drive cpel "$f"
"$TK" stats "$f" >"$art/stats.txt"
awk '/per event code:/ {on=1; next} /per track:/ {on=0} on {c=$1; $1=""; $2=""; sub(/^ +/, ""); print $0, c}' "$art/stats.txt" | LC_ALL=C sort >"$work/names_want"
jq -r '.whole.names[] | "\(.[0]) \(.[1])"' "$J" | LC_ALL=C sort >"$work/names_got"
same_lines "$work/names_want" "$work/names_got" "events per code = tracekit stats" \
  "events per code differ from tracekit stats"
awk '/per track:/ {on=1; next} on && NF >= 3 {c=$1; $1=""; $2=""; sub(/^ +/, ""); print $0, c}' "$art/stats.txt" | LC_ALL=C sort >"$work/tracks_want"
jq -r '.tracks[] | select(.kind == "events") | "\(.name) \(.count)"' "$J" | LC_ALL=C sort >"$work/tracks_got"
same_lines "$work/tracks_want" "$work/tracks_got" "one track per CPEL track, counts = tracekit stats" \
  "tracks differ from tracekit stats"
check_details
abs=$(jq -r .clicked.abs "$J")
tr=$(jq -r .clicked.trackName "$J")
"$TK" print --format json --begin "${abs}ns" --end "${abs}ns" "$f" | jq -c --arg t "$tr" 'select(.payload.track == $t) | .payload' | head -1 >"$work/fields"
if [ -s "$work/fields" ] && jq -e --slurpfile f "$work/fields" '. as $d | $f[0] | to_entries
     | all(if .key == "track" then $d.details.track == "tracks / \(.value)" else ($d.details[.key]) == (.value | tostring) end)' "$J" >/dev/null; then
  echo "ok: details show the fields tracekit print gives the event"
else echo "FAIL: details differ from tracekit print: $(cat "$work/fields")"; fail=1; fi
check_keys
b=$(jq -r .selection.begin "$J"); e=$(jq -r .selection.end "$J")
name=$(jq -r '.whole.names[0][0]' "$J")
"$TK" report --state "$name" --begin "${b}ns" --end "${e}ns" "$f" >"$art/report.txt"
awk 'NR > 2 && $1 != "all" {n=$NF; c=$(NF-5); $NF=""; for (i = NF - 5; i <= NF; i++) $i=""; sub(/ +$/, ""); print $0, c + 1}' "$art/report.txt" | LC_ALL=C sort >"$work/sel_want"
jq -r '.sel.tracks[] | "\(.[0] | sub("^tracks / "; "")) \(.[1])"' "$J" | LC_ALL=C sort >"$work/sel_got"
same_lines "$work/sel_want" "$work/sel_got" "selection counts per track = tracekit report --state --begin/--end" \
  "selection counts per track differ from tracekit report"
# the model context's CPEL states (report --state's rule): one span per
# event, until the next on its track
check '[.tracks[] | select(.kind == "spans")] | length == 2' "a state track per CPEL track"
# a run of one state: each span a bar of its own when they are wide enough
check '.spanGaps != null and .spanGaps.minPx >= 3 and .spanGaps.runs == .spanGaps.spans' \
  "touching states of one name are drawn one bar each ($(jq -c '.spanGaps' "$J"))"
check '([.whole.spanTracks[] | .[1] | tonumber] | add) == ([.tracks[] | select(.kind == "events") | .count] | add)' \
  "state spans: one per event (each track's last ends with the trace)"
finish
