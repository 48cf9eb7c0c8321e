#!/usr/bin/env bash
# tracekit view while chromium still reads the page: a generated CPEL file
# big enough that its rows come after the page's script (bench/cpel_gen.py,
# 300000 events), served by the driver up to the end of one track's
# columns and held there (tests/view/drive.js --loading). Before the rest
# arrives: a click on one of that track's events (known from `tracekit
# print --format json`) picks it and shows it, hovering shows it, and a
# search for its name finds every entry of that name in the rows read so
# far (counted again on the complete data). Then the rest loads and the
# search covers every row.
set -u
. "$TK_SOURCE_DIR/tests/view/lib.bash"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
/usr/bin/python3 "$TK_SOURCE_DIR/bench/cpel_gen.py" "$work/gen.cpel" 300000
track="cpu 3"
"$TK" print --format json "$work/gen.cpel" | jq -c --arg t "$track" 'select(.payload.track == $t)' | sed -n 18750p >"$work/event"
abs=$(jq -r .time "$work/event"); name=$(jq -r .event "$work/event")
[ -n "$abs" ] && [ -n "$name" ] || { echo "FAIL: no event on $track in tracekit print"; exit 1; }
art="$TK_BUILD_DIR/view-artefacts/loading"
rm -rf "$art"; mkdir -p "$art"
"$TK" view -q "$work/gen.cpel" -o "$art/view.html" || { echo "FAIL: tracekit view"; exit 1; }
rc=0
TK_BUILD_DIR="$TK_BUILD_DIR" node "$TK_SOURCE_DIR/tests/view/drive.js" "$art/view.html" "$art" --loading "$track" "$abs" \
  >"$art/drive.json" 2>"$art/drive.err" || rc=$?
if [ $rc -eq 77 ]; then echo "SKIP: $(jq -r .skip "$art/drive.json")"; exit 77; fi
[ $rc -eq 0 ] || { echo "FAIL: the browser driver failed:"; tail -20 "$art/drive.err"; exit 1; }
J="$art/drive.json"
check '.errors == []' "no errors in the page"
check '.lateAfterCut and .before.pendingBefore' "the page is held with rows still to come; $track's row not filled in yet"
check '[.before, .during] | all(.complete == false and .readyState == "loading")' "the page was still loading while picking and searching"
check '.picked != null and .picked.track == .track and .picked.name == $n and .after.pickedTime == .rel' \
  "a click while loading picks the event under the mouse ($name at ${abs} ns)" --arg n "$name"
check '.details.name == $n' "details show the picked event" --arg n "$name"
check '.tooltip != null and (.tooltip | startswith($n))' "hovering shows its tooltip" --arg n "$name"
check '.search.matches > 0 and .search.matches == .after.expectMatches and (.search.info | endswith("so far"))' \
  "a search while loading finds every entry of the name in the rows read so far ($(jq -r '.search.info' "$J"))"
check '(.search.window != [.before.v0, .before.v1]) and .search.tooltipHidden' \
  "the search moved the view to a match and the hover tooltip of the old view is gone"
check '(.search.rows | length) < .after.allRows' "rows not yet read were left out ($(jq -r '"\(.search.rows | length) of \(.after.allRows)"' "$J"))"
check '(.after.searchInfo | capture("^(?<n>[0-9]+) matches$").n | tonumber) > .search.matches' \
  "once loaded, the search covers every row ($(jq -r .after.searchInfo "$J"))"
finish
