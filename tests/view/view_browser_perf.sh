#!/usr/bin/env bash
# tracekit view of a `perf record -g -a -e sched:sched_switch` recording made
# here, in headless chromium: the tracks, names and counts shown equal
# `tracekit stats` (and per thread `tracekit print`); a clicked event shows
# the fields `tracekit print --format json` gives it; keys zoom and pan; a
# dragged selection's statistics and flame graph totals equal `tracekit
# report --begin/--end` on the selection's bounds.
set -u
. "$TK_SOURCE_DIR/tests/view/lib.bash"
command -v perf >/dev/null || { echo "SKIP: perf is not installed"; exit 77; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cc -O1 -o "$work/workload" "$TK_SOURCE_DIR/examples/workload.c" || exit 1
if ! perf record -q -g -a -e sched:sched_switch -o "$work/s.data" -- sh -c "$work/workload >/dev/null; sleep 0.1" \
     >/dev/null 2>"$work/rec.err" || [ ! -s "$work/s.data" ]; then
  echo "SKIP: perf cannot record sched:sched_switch here: $(head -1 "$work/rec.err")"; exit 77
fi
view_drive perf "$work/s.data"
cp "$work/s.data" "$art/s.data"
"$TK" stats "$work/s.data" >"$art/stats.txt"
n=$(awk '/^sched:sched_switch stats:/ {getline; print $3}' "$art/stats.txt")
check '.whole.names == [["sched:sched_switch", $n, ""]]' "events per name = tracekit stats ($n)" --arg n "$n"
awk '/^Samples per CPU:/ {on=1; next} on && /cpu/ {gsub(":", "", $2); printf "CPU %s %s\n", $2, $3; next} on {exit}' \
  "$art/stats.txt" | LC_ALL=C sort >"$work/cpu_want"
jq -r '.whole.cpus[] | "\(.[0]) \(.[1])"' "$J" | LC_ALL=C sort >"$work/cpu_got"
same_lines "$work/cpu_want" "$work/cpu_got" "samples per CPU = tracekit stats" \
  "samples per CPU differ from tracekit stats"
"$TK" print --format json "$work/s.data" | jq -r 'if .tid < 0 then "process events" else "thread \(.tid)" end' | LC_ALL=C sort | uniq -c |
  sed 's/^ *\([0-9]*\) \(.*\)/\2 \1/' | LC_ALL=C sort >"$work/tid_want"
# (events without a thread are on one "process events" track per process;
# they are summed here as print's tid -1)
jq -r '.tracks[] | select(.kind == "events") | if .tid < 0 then "process events \t\(.count)" else "thread \(.tid)\t\(.count)" end' "$J" |
  awk -F'\t' '{n[$1] += $2} END {for (k in n) print k, n[k]}' | sed 's/  / /' | LC_ALL=C sort >"$work/tid_got"
same_lines "$work/tid_want" "$work/tid_got" "one track per thread, counts = tracekit print" \
  "threads/counts differ from tracekit print"
check '.timeMode.button == "trace clock" and (.timeMode.abs | test("^[0-9]+\\.[0-9]{9} \\.\\. "))' \
  "the time toggle shows the trace's clock (perf's seconds)"
check_details
abs=$(jq -r .clicked.abs "$J")
check '.details.time == $t' "details show the event's time" --arg t "$(abs_time "$abs")"
tid=$(jq -r '.details.thread | capture("tid (?<t>[0-9]+)").t' "$J")
"$TK" print --format json --begin "${abs}ns" --end "${abs}ns" "$work/s.data" |
  jq -c --argjson tid "$tid" 'select(.tid == $tid) | .fields' | head -1 >"$work/fields"
if [ -s "$work/fields" ] && jq -e --slurpfile f "$work/fields" '. as $d | $f[0] | to_entries | all(($d.details[.key]) == (.value | tostring))' "$J" >/dev/null; then
  echo "ok: details show the fields tracekit print gives the event"
else echo "FAIL: details fields differ from tracekit print: $(cat "$work/fields")"; fail=1; fi
check '(.stack | length) > 0' "details show the event's stack"
check_keys
b=$(jq -r .selection.begin "$J"); e=$(jq -r .selection.end "$J")
"$TK" report --begin "${b}ns" --end "${e}ns" "$work/s.data" >"$art/report.txt"
read -r rs rp < <(awk '$1 == "sched:sched_switch" && NF == 3 {print $2, $3; exit}' "$art/report.txt")
check '.sel.names == [["sched:sched_switch", $s, ""]]' "selection count = tracekit report --begin/--end ($rs)" --arg s "${rs:-none}"
check '.flame.samples == ($s | tonumber) and .flame.weight == ($p | tonumber)' \
  "flame graph of the selection: $rs samples, period $rp = tracekit report" --arg s "${rs:-0}" --arg p "${rp:-0}"
# the per-symbol table beside the flame graph: self weight per symbol =
# report's rows (its leaf symbols), for every symbol report resolves
awk '/^=====/ {on=1; getline; next} on && NF >= 5 && $4 != "[unknown]" {print $4, $1}' "$art/report.txt" | LC_ALL=C sort >"$work/sym_want"
jq -r '.flame.symbols[] | select(.self > 0) | "\(.name) \(.self)"' "$J" | LC_ALL=C sort >"$work/sym_got"
if [ -s "$work/sym_want" ] && [ -z "$(LC_ALL=C comm -23 "$work/sym_want" "$work/sym_got")" ]; then
  echo "ok: per-symbol self weights = tracekit report's rows ($(wc -l <"$work/sym_want") symbols)"
else echo "FAIL: per-symbol weights differ from tracekit report:"; LC_ALL=C comm -23 "$work/sym_want" "$work/sym_got" | head -5; fail=1; fi
check_flame_zoom
check '.flameInfo | test("^[0-9]+ samples, weight [0-9]+")' "the flame graph tab shows its totals"
finish
