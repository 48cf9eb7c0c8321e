#!/usr/bin/env bash
# DWARF unwinding speed (issue 16): one `perf record --call-graph dwarf`
# recording of python3 (json encoding and a generator, no frame pointers
# in its callers' libraries) and of tests/oracle/unwind/calls.c built
# -O2 -fomit-frame-pointer; then, with hyperfine (3 runs, 1 warm-up),
# `tracekit print --format perf-script` vs `perf script` on each file,
# after checking that both print the same bytes; and the CPU time
# (user+sys, /usr/bin/time, best of 3: addr2line children included,
# steadier than wall time on a loaded machine). Also the unwinding rate
# (samples per CPU second of tracekit) and tracekit's peak RSS.
# "no cache" is the same tracekit with TRACEKIT_UNWIND_NO_CACHE=1 (libdwfl
# walks every frame itself, the state before the CFI rule cache): the
# before/after of that cache, in the same run.
# Usage: bench/unwind_bench.sh [SECONDS] (default 5 s of python3 at -F 2000).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
TK=${TK:-$here/../build/bin/tracekit}
secs=${1:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v hyperfine >/dev/null || { echo "hyperfine is needed (Debian: hyperfine)"; exit 1; }
cc -O2 -g -fomit-frame-pointer -o "$work/calls" "$here/../tests/oracle/unwind/calls.c"
perf record -q --call-graph dwarf -e cpu-clock:u -F 2000 -o "$work/py.data" -- /usr/bin/python3 -c "
import json, time
end = time.time() + $secs
def f(n):
    return sum(i * i for i in range(n))
while time.time() < end:
    f(100000); json.dumps(list(range(20000)))" >/dev/null 2>&1
perf record -q --call-graph dwarf -e cpu-clock:u -F 2000 -o "$work/c.data" -- "$work/calls" 60000000 >/dev/null 2>&1
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| file | samples | identical | tracekit wall | no cache wall | perf script wall | ratio | tracekit CPU | no cache CPU | perf script CPU | ratio | tracekit samples/CPU s | tracekit peak RSS |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for name in py c; do
  data="$work/$name.data"
  perf script -i "$data" >"$work/$name.want" 2>/dev/null
  "$TK" print --format perf-script "$data" >"$work/$name.got"
  TRACEKIT_UNWIND_NO_CACHE=1 "$TK" print --format perf-script "$data" >"$work/$name.slow"
  same=no; cmp -s "$work/$name.want" "$work/$name.got" && cmp -s "$work/$name.want" "$work/$name.slow" && same=yes
  n=$(grep -c 'cpu-clock:u:' "$work/$name.want")
  hyperfine -N -w 1 -r 3 --export-json "$work/$name.json" \
    "$TK print --format perf-script $data" "perf script -i $data" \
    "env TRACEKIT_UNWIND_NO_CACHE=1 $TK print --format perf-script $data" >/dev/null 2>&1
  read -r tk pf nc <<<"$(/usr/bin/python3 -c "
import json; r = json.load(open('$work/$name.json'))['results']
print(r[0]['mean'], r[1]['mean'], r[2]['mean'])")"
  /usr/bin/time -f %M -o "$work/rss" "$TK" print --format perf-script "$data" >/dev/null
  cpu() { # best user+sys of 3 runs
    local best=999 i t
    for i in 1 2 3; do
      /usr/bin/time -f "%U %S" -o "$work/t" "$@" >/dev/null 2>&1
      t=$(awk '{print $1 + $2}' "$work/t")
      best=$(echo "if ($t < $best) $t else $best" | bc -l)
    done
    echo "$best"
  }
  tc=$(cpu "$TK" print --format perf-script "$data")
  pc=$(cpu perf script -i "$data")
  ncc=$(cpu env TRACEKIT_UNWIND_NO_CACHE=1 "$TK" print --format perf-script "$data")
  printf '| %s | %s | %s | %.3f s | %.3f s | %.3f s | %.1fx | %.2f s | %.2f s | %.2f s | %.1fx | %.0f | %s MB |\n' "$name" "$n" \
    "$same" "$tk" "$nc" "$pf" "$(echo "$pf / $tk" | bc -l)" "$tc" "$ncc" "$pc" "$(echo "$pc / $tc" | bc -l)" \
    "$(echo "$n / $tc" | bc -l)" "$(( $(cat "$work/rss") / 1024 ))"
done
