#!/usr/bin/env bash
# Oracle: bpf-output events (perf's evsel__is_bpf_output).
# - `print --format perf-script` is identical to `perf script`: the hex and
#   character dump of the RAW data, and "BPF string:" for a C string;
# - they convert to CTF as `perf data convert --to-ctf` converts them:
#   raw_len and the sequence raw_data of hex u32 after the sample fields, so
#   babeltrace2's text of both traces is identical.
# The samples are spliced into a real recording of the event
# (tests/support/perf_splice_bpf_output.py says why).
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}"
for t in perf babeltrace2 python3; do
  command -v "$t" >/dev/null || { echo "SKIP: $t is not installed"; exit 77; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! perf record -q -e bpf-output -o "$work/rec.data" -- true >/dev/null 2>"$work/rec.err"; then
  echo "SKIP: perf cannot record bpf-output here: $(head -1 "$work/rec.err")"; exit 77
fi
python3 "$TK_SOURCE_DIR/tests/support/perf_splice_bpf_output.py" "$work/rec.data" "$work/bpf.data" || exit 1
perf script -i "$work/bpf.data" >"$work/perf.script" 2>/dev/null || { echo "SKIP: perf script failed"; exit 77; }
"$TK" print --format perf-script "$work/bpf.data" >"$work/ours.script" 2>/dev/null || { echo "FAIL: print --format perf-script"; exit 1; }
if ! grep -q 'BPF string: "hello, bpf"' "$work/perf.script"; then echo "FAIL: perf script shows no BPF string (the input is not what this test expects)"; exit 1; fi
if ! cmp -s "$work/perf.script" "$work/ours.script"; then
  echo "FAIL: perf-script text differs"; diff "$work/perf.script" "$work/ours.script" | head -10; exit 1
fi
echo "ok: perf script identical, $(grep -c 'BPF output:' "$work/ours.script") dumps"
if ! perf data convert -i "$work/bpf.data" --to-ctf "$work/perf" >/dev/null 2>&1; then
  echo "SKIP: perf data convert --to-ctf failed"; exit 77
fi
"$TK" convert "$work/bpf.data" -o "$work/ours" 2>"$work/ours.err" || { echo "FAIL: convert"; cat "$work/ours.err"; exit 1; }
babeltrace2 "$work/perf" >"$work/perf.txt" 2>&1 || { echo "FAIL: babeltrace2 of perf's trace"; exit 1; }
babeltrace2 "$work/ours" >"$work/ours.txt" 2>&1 || { echo "FAIL: babeltrace2 of ours"; head -5 "$work/ours.txt"; exit 1; }
n=$(grep -c 'raw_data = \[' "$work/ours.txt")
if [ "$n" -ne 7 ]; then echo "FAIL: $n events with raw_data, want 7"; exit 1; fi
if ! cmp -s "$work/perf.txt" "$work/ours.txt"; then
  echo "FAIL: babeltrace2 text differs"; diff "$work/perf.txt" "$work/ours.txt" | head -10; exit 1
fi
# the odd-sized payload is reported, as perf does
grep -q 'not a multiple of 4' "$work/ours.err" || { echo "FAIL: no warning for the 6-byte payload"; exit 1; }
echo "ok: $n bpf-output events identical"
