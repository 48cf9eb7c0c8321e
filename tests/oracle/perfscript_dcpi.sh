#!/usr/bin/env bash
# perf -> DCPI: `tracekit convert X.data -o DB --to dcpi` writes one profile
# per (image, event) under DB/<epoch>/<host>/ whose counts add up to the
# number of samples (`perf script -F tid` lines); the workload's profile has
# its build id as image id and its path line; the database reads back
# (`tracekit report DB`, `tracekit print DB`) and `tracekit diff X.data DB`
# shows no delta for any symbol. Recordings made here.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}"
if ! command -v perf >/dev/null; then echo "SKIP: perf is not installed"; exit 77; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O1 -g -fno-omit-frame-pointer -Wl,--build-id -o "$work/workload" "$TK_SOURCE_DIR/examples/workload.c" || exit 1
if ! perf record -q -o "$work/probe.data" -- true >/dev/null 2>"$work/probe.err"; then
  echo "SKIP: perf cannot record here: $(head -1 "$work/probe.err")"; exit 77
fi
failed=0; checked=0
check() {
  local name=$1; shift
  local data="$work/$name.data" db="$work/$name.db"
  if ! perf record -q -o "$data" "$@" >/dev/null 2>"$work/$name.rec.err" || [ ! -s "$data" ]; then
    echo "SKIP $name: perf record failed"; return
  fi
  local want; want=$(perf script -i "$data" -F tid 2>/dev/null | wc -l)
  if ! "$TK" convert "$data" -o "$db" --to dcpi 2>"$work/$name.err"; then
    echo "FAIL $name: convert failed: $(head -3 "$work/$name.err")"; failed=$((failed+1)); return
  fi
  checked=$((checked+1))
  local host; host=$(perf report -i "$data" --header-only 2>/dev/null | awk -F': ' '/^# hostname/ {print $2; exit}')
  if [ -z "$(find "$db" -mindepth 2 -maxdepth 2 -type d -name "$host")" ]; then
    echo "FAIL $name: no DB/<epoch>/$host/ directory"; failed=$((failed+1))
  fi
  local got; got=$("$TK" print "$db" | awk '/^0x[0-9a-f]+ [0-9]+$/ {s += $2} END {print s + 0}')
  if [ "$got" = "$want" ]; then echo "ok $name: $(find "$db" -name '*.prof' | wc -l) profiles, $got samples"
  else echo "FAIL $name: database counts $got, perf has $want samples"; failed=$((failed+1)); fi
  local prof; prof=$(grep -l "^path $work/workload\$" $(find "$db" -name '*.prof') 2>/dev/null | head -1)
  local bid; bid=$(readelf -n "$work/workload" | awk '/Build ID/ {print $3}')
  if [ -z "$prof" ] || ! grep -aq "^image $bid\$" "$prof"; then
    echo "FAIL $name: no workload profile with image $bid"; failed=$((failed+1))
  fi
  # the database attributes every sample to the same symbol as the perf.data
  if ! "$TK" diff "$data" "$db" >"$work/$name.diff" 2>&1 || grep -Eq '[+-][0-9.]*[1-9][0-9.]*%' "$work/$name.diff"; then
    echo "FAIL $name: diff perf.data vs its DCPI database is not zero"; grep -E '[+-][0-9.]*[1-9][0-9.]*%' "$work/$name.diff" | head -5; failed=$((failed+1))
  fi
  if ! "$TK" report "$db" >"$work/$name.report" 2>&1 || ! grep -q hash_loop "$work/$name.report"; then
    echo "FAIL $name: report on the database"; head -5 "$work/$name.report"; failed=$((failed+1))
  fi
}
check user -e cpu-clock:u -- "$work/workload"
check kernel -e cpu-clock -- "$work/workload"
check system-g -g -a -- "$work/workload"
# Two copies of one binary at two paths share base name and build id, so
# their profiles want the same file name (as when two test directories each
# run their own ./workload under a system-wide recording): both must be kept.
mkdir -p "$work/twin" && cp "$work/workload" "$work/twin/workload"
check twins -e cpu-clock:u -- sh -c "'$work/twin/workload' & '$work/workload'; wait"
twin=$(grep -l "^path $work/twin/workload\$" $(find "$work/twins.db" -name '*.prof') 2>/dev/null | head -1)
if [ -z "$twin" ]; then echo "FAIL twins: no profile for the second copy"; failed=$((failed+1)); fi
if [ "$checked" -eq 0 ]; then echo "SKIP: nothing could be checked"; exit 77; fi
[ "$failed" -eq 0 ] || exit 1
