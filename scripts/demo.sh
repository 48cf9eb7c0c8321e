#!/usr/bin/env bash
# The main job (`make demo`): profile a small bundled workload with
# `perf record`, then show what tracekit makes of it. Falls back to the
# recording committed under examples/ when perf cannot record here.
set -euo pipefail
cd "$(dirname "$0")/.."
TK=build/bin/tracekit
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cc -O1 -g -fno-omit-frame-pointer -o "$work/workload" examples/workload.c
data="$work/demo.perf.data"
if perf record -q -g -F 2000 -o "$data" -- "$work/workload" 10 >/dev/null 2>"$work/perf.err"; then
  echo "== recorded $(du -h "$data" | cut -f1) with: perf record -g -F 2000 workload"
else
  echo "== perf cannot record here ($(head -1 "$work/perf.err")); using examples/demo.perf.data"
  data=examples/demo.perf.data
fi

show() {
  echo
  echo "\$ tracekit $*"
  "$TK" "$@"
}
show info "$data"
show stats "$data"
echo
echo "\$ tracekit print $data | head -20"
"$TK" print "$data" | head -20
echo
echo "\$ tracekit print --format json $data | head -3"
"$TK" print --format json "$data" | head -3
for extra in scripts/demo.d/*.sh; do
  [ -e "$extra" ] && TK="$TK" DEMO_DATA="$data" bash "$extra"
done
echo
echo "== demo done"
