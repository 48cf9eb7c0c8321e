#!/usr/bin/env bash
# Demo, part 2: convert the recording to CTF (read back with babeltrace2
# when installed) and to Chrome trace JSON (open it in ui.perfetto.dev).
set -euo pipefail
: "${TK:?}"
data=${DEMO_DATA:-examples/demo.perf.data}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo
echo "\$ tracekit convert $data -o OUT.ctf --to ctf"
"$TK" convert "$data" -o "$out/ctf" --to ctf
if command -v babeltrace2 >/dev/null; then
  echo "\$ babeltrace2 OUT.ctf | head -2"
  babeltrace2 "$out/ctf" | head -2 || true  # head closes the pipe early
fi
echo "\$ tracekit print --format babeltrace OUT.ctf | head -2"
"$TK" print --format babeltrace "$out/ctf" | head -2
echo
echo "\$ tracekit convert $data -o trace.json     # Chrome trace JSON for Perfetto"
"$TK" convert "$data" -o "$out/trace.json"
echo "wrote $(wc -c <"$out/trace.json") bytes; first event:"
sed -n 2p "$out/trace.json" | cut -c1-160
