#!/usr/bin/env bash
# Oracle (issues 12 and 19): `tracekit print --format json` on `perf record
# -g` recordings made here carries every frame of every sample symbolized
# as `perf script -F ip,sym,dso` shows it: the same symbol, the same image
# (basename) and the same address (perf's map-relative one = the frame's
# dso_off), frame for frame, in a process's own recording and in a
# system-wide one (kernel, modules, many images). Also: each sample's comm
# equals `perf script -F comm`. Parsed with /usr/bin/python3
# (tests/support/context_check.py frames). Skipped (exit 77) where perf
# cannot record.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}"
py=/usr/bin/python3
[ -x "$py" ] || { echo "SKIP: no $py"; exit 77; }
command -v perf >/dev/null || { echo "SKIP: perf is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
check="$py $TK_SOURCE_DIR/tests/support/context_check.py"
cc -O1 -g -fno-omit-frame-pointer -o "$work/workload" "$TK_SOURCE_DIR/examples/workload.c" || exit 1
failed=0 checked=0

# one NAME PERF-RECORD-ARGS...: records, then compares every frame
one() {
  local name=$1; shift
  local d="$work/$name.data"
  if ! perf record -q -o "$d" "$@" >/dev/null 2>"$work/$name.err" || [ ! -s "$d" ]; then
    echo "SKIP $name: perf record failed: $(grep -v '^\[' "$work/$name.err" | head -1)"
    return
  fi
  perf script -i "$d" -F ip,sym,dso 2>/dev/null >"$work/$name.stacks"
  perf script -i "$d" -F comm 2>/dev/null | sed 's/^ *//; s/ *$//' >"$work/$name.comm.want"
  if ! "$TK" print --format json "$d" >"$work/$name.jsonl" 2>"$work/$name.tkerr"; then
    echo "FAIL $name: tracekit exited non-zero: $(head -2 "$work/$name.tkerr")"
    failed=$((failed + 1)); return
  fi
  if out=$($check frames "$work/$name.stacks" "$work/$name.jsonl" 2>&1); then
    echo "ok $name: $out"; checked=$((checked + 1))
  else
    echo "FAIL $name: $out"; failed=$((failed + 1))
  fi
  $py -c 'import json,sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "sample": print(e.get("comm", ":%d" % e["tid"]))' "$work/$name.jsonl" >"$work/$name.comm.got"
  if cmp -s "$work/$name.comm.want" "$work/$name.comm.got"; then
    echo "ok $name: comm of $(wc -l <"$work/$name.comm.got") samples equal"
  else
    echo "FAIL $name: comm differs from perf script -F comm"
    diff "$work/$name.comm.want" "$work/$name.comm.got" | head -4
    failed=$((failed + 1))
  fi
}

one process -g -e cpu-clock -c 200000 -- "$work/workload" 1
one system -g -a -F 2000 -- sh -c "'$work/workload' 1 >/dev/null; ls -R /usr/lib >/dev/null 2>&1"
echo "$checked recordings checked, $failed failed"
[ "$failed" -eq 0 ] && [ "$checked" -gt 0 ]
