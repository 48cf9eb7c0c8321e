#!/usr/bin/env bash
# tracekit view at scale: a generated N-event CPEL file (default 10 M events
# over 8 tracks; the model context adds one state span per event, so the
# page holds 2 N entries) -> view.html. Times tracekit (3 runs, CPU and
# wall, max RSS) and the page's bytes per event; then opens the page in
# headless chromium (tests/view/drive.js --bench: Debian's chromium driven
# by npm's playwright-core, installed into the build tree by
# tests/view/setup.sh) for the time to first paint and pan/zoom frame times
# measured in the page with performance.now() (40 frames: 10 windows at
# each of 4 zoom levels, from the whole trace down to 1e-5 of it).
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
best_cpu=
for i in 1 2 3; do
  /usr/bin/time -v "$TK" view -q "$tmp/bench.cpel" -o "$tmp/view.html" 2>"$tmp/time"
  s=$(awk -F': ' '/Elapsed \(wall clock\)/ {split($2, a, ":"); print a[1] * 60 + a[2]}' "$tmp/time")
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tmp/time")
  cpu=$(awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} END {print u + s}' "$tmp/time")
  echo "run $i: ${s}s wall, ${cpu}s CPU (user+sys), max RSS ${rss} KB"
  if [ -z "$best_cpu" ] || awk "BEGIN {exit !($cpu < $best_cpu)}"; then best_cpu=$cpu; best_wall=$s; fi
done
bytes=$(stat -c %s "$tmp/view.html")
awk -v n="$n" -v b="$bytes" -v c="$best_cpu" -v w="$best_wall" \
  'BEGIN {printf "tracekit view: best %.2f s CPU (%.2f s wall), page %.1f MB = %.1f bytes/event\n", c, w, b / 1e6, b / n}'
if [ ! -f "$build/npm/node_modules/playwright-core/package.json" ]; then
  TK_BUILD_DIR=$build bash "$here/../tests/view/setup.sh" || { echo "no playwright-core: browser figures skipped"; exit 0; }
fi
TK_BUILD_DIR=$build node "$here/../tests/view/drive.js" "$tmp/view.html" "$tmp/shots" --bench >"$tmp/b.json" ||
  { echo "chromium could not run: browser figures skipped"; exit 0; }
jq -r '"chromium: first paint \(.firstPaintMs | floor) ms after navigation (data decoded and laid out in \(.loadMs | floor) ms), errors: \(.errors | length)"' "$tmp/b.json"
jq -r '.frames | group_by(.width) | reverse[] | "frames over \(.[0].width / 1e9 | tostring | .[0:10]) s windows: max \([.[].ms] | max | . * 10 | floor / 10) ms, median \([.[].ms] | sort | .[length / 2 | floor] | . * 10 | floor / 10) ms, \(.[0].rects) rectangles"' "$tmp/b.json"
