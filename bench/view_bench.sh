#!/usr/bin/env bash
# tracekit view at scale: a generated N-event CPEL file (default 10 M events
# over 8 tracks; the model context adds one state span per event, so the
# page holds 2 N entries) -> view.html. Times tracekit (3 runs, CPU and
# wall, max RSS) and the page's bytes per event; then opens the page in
# headless chromium (tests/view/drive.js --bench: Debian's chromium driven
# by npm's playwright-core, installed into the build tree by
# tests/view/setup.sh) for the time to first paint, the time all the data
# was read, and pan/zoom frame times measured in the page with
# performance.now() (40 frames: 10 windows at each of 4 zoom levels, from
# the whole trace down to 1e-5 of it).
# With TK_BEFORE=another tracekit binary, the same is measured for it in
# the same run (its runs alternate with TK's), for before/after figures.
# Usage: bench/view_bench.sh [N]   (TK = tracekit binary, default build/bin/tracekit)
set -eu
n=${1:-10000000}
here=$(cd "$(dirname "$0")" && pwd)
TK=${TK:-$here/../build/bin/tracekit}
build=${TK_BUILD_DIR:-$(cd "$(dirname "$TK")/.." && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 "$here/cpel_gen.py" "$tmp/bench.cpel" "$n"
ls -l "$tmp/bench.cpel" | awk '{printf "input: %d events, %.1f MB\n", '"$n"', $5 / 1e6}'
cat "$tmp/bench.cpel" >/dev/null # warm the page cache
labels=after
[ -n "${TK_BEFORE:-}" ] && labels="before after"
declare -A bin best_cpu best_wall
bin[after]=$TK
bin[before]=${TK_BEFORE:-}
for i in 1 2 3; do
  for l in $labels; do
    /usr/bin/time -v "${bin[$l]}" view -q "$tmp/bench.cpel" -o "$tmp/$l.html" 2>"$tmp/time"
    s=$(awk -F': ' '/Elapsed \(wall clock\)/ {split($2, a, ":"); print a[1] * 60 + a[2]}' "$tmp/time")
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tmp/time")
    cpu=$(awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} END {print u + s}' "$tmp/time")
    echo "$l run $i: ${s}s wall, ${cpu}s CPU (user+sys), max RSS ${rss} KB"
    if [ -z "${best_cpu[$l]:-}" ] || awk "BEGIN {exit !($cpu < ${best_cpu[$l]})}"; then
      best_cpu[$l]=$cpu; best_wall[$l]=$s
    fi
  done
done
for l in $labels; do
  bytes=$(stat -c %s "$tmp/$l.html")
  awk -v l="$l" -v n="$n" -v b="$bytes" -v c="${best_cpu[$l]}" -v w="${best_wall[$l]}" \
    'BEGIN {printf "%s: tracekit view best %.2f s CPU (%.2f s wall), page %.1f MB = %.1f bytes/event\n", l, c, w, b / 1e6, b / n}'
done
if [ ! -f "$build/npm/node_modules/playwright-core/package.json" ]; then
  TK_BUILD_DIR=$build bash "$here/../tests/view/setup.sh" || { echo "no playwright-core: browser figures skipped"; exit 0; }
fi
for round in 1 2; do
  for l in $labels; do
    TK_BUILD_DIR=$build node "$here/../tests/view/drive.js" "$tmp/$l.html" "$tmp/shots-$l" --bench >"$tmp/b.json" ||
      { echo "chromium could not run: browser figures skipped"; exit 0; }
    jq -r --arg l "$l" --arg r "$round" '"\($l) (chromium round \($r)): first paint \(.firstPaintMs | floor) ms after navigation (drawing \(.firstFrame.rects // "?") rectangles, all data read then: \(if .firstFrame then (.firstFrame.complete | tostring) else "?" end)), all data read and laid out at \(.loadMs | floor) ms, errors: \(.errors | length)"' "$tmp/b.json"
    jq -r --arg l "$l" '.frames | group_by(.width) | reverse[] | "  \($l): frames over \(.[0].width / 1e9 | tostring | .[0:10]) s windows: max \([.[].ms] | max | . * 10 | floor / 10) ms, median \([.[].ms] | sort | .[length / 2 | floor] | . * 10 | floor / 10) ms, \(.[0].rects) rectangles"' "$tmp/b.json"
  done
done
