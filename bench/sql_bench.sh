#!/usr/bin/env bash
# SQL over traces: `tracekit sql` against `tracekit stats` on the same file,
# and the .sqlite export rate. CPU time (perf stat task-clock, mean of RUNS
# runs; /usr/bin/time without perf).
#   count:   SELECT name, count(*) FROM event GROUP BY name   vs  tracekit stats
#   args:    SELECT count(*) FROM event WHERE json_extract(args, ...) ...  (model values)
#   report:  top symbols (sample x callsite x stack_frame)     vs  tracekit report
#   export:  tracekit convert FILE -o x.sqlite                 (events/s, file size)
# Inputs (made in WORKDIR, default /tmp/tk-sql-bench, reused when present):
#   perf: ~1 M cpu-clock samples with call chains (perf record -c 25000 -g -a,
#         two busy loops for 13 s); needs perf and permission to record
#   ctf:  1.5 M events, one stream (babeltrace2 src.text.dmesg -> sink.ctf.fs),
#         the trace bench/ctf_bench.sh makes
# usage: bench/sql_bench.sh [WORKDIR]   (env TK = tracekit binary, RUNS = 5)
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
TK=${TK:-$here/build/bin/tracekit}
RUNS=${RUNS:-5}
work=${1:-/tmp/tk-sql-bench}
mkdir -p "$work" || exit 1
export TZ=UTC LC_ALL=C
[ -x "$TK" ] || { echo "no tracekit binary at $TK (set TK)"; exit 1; }

perf_data=$work/perf-1m.data
if [ ! -s "$perf_data" ] && command -v perf >/dev/null; then
  perf record -q -e cpu-clock -c 25000 -g -a -o "$perf_data" -- sh -c \
    'timeout 13 sh -c "while :; do :; done" & timeout 13 sh -c "while :; do :; done"; wait' \
    >/dev/null 2>&1 || rm -f "$perf_data"
fi
ctf=$work/dmesg-ctf
if [ ! -f "$ctf/dmesg.txt/metadata" ] && command -v babeltrace2 >/dev/null; then
  /usr/bin/python3 - "$work/dmesg.txt" <<'PY'
import random, sys
r = random.Random(1)
words = 'usb device new high-speed number using ehci_hcd ACPI PCI interrupt link enabled IRQ eth0 link up 1000Mbps full duplex'.split()
with open(sys.argv[1], 'w') as f:
    t = 0.0
    for i in range(1500000):
        t += r.random() * 0.001
        f.write('[%12.6f] %s\n' % (t, ' '.join(r.choice(words) for _ in range(r.randint(3, 9)))))
PY
  babeltrace2 run --component=src:src.text.dmesg --params="path=\"$work/dmesg.txt\"" \
    --component=sink:sink.ctf.fs --params="path=\"$ctf\"" --connect=src:sink >/dev/null
fi

# CPU seconds (task-clock, mean of RUNS runs, with perf stat; else the
# best user + sys of RUNS runs from /usr/bin/time, 10 ms granularity)
cpu() {
  if command -v perf >/dev/null; then
    perf stat -x, -e task-clock -r "$RUNS" "$@" 2>&1 >/dev/null | awk -F, '/task-clock/ { printf "%.3f", $1 / 1000 }'
    return
  fi
  local best=
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -o "$work/time" -f '%U %S' "$@" >/dev/null 2>&1
    t=$(tail -1 "$work/time" | awk '{ printf "%.2f", $1 + $2 }')
    best=$(awk -v a="$t" -v b="${best:-$t}" 'BEGIN { print (a < b ? a : b) }')
  done
  echo "$best"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "-" }'; }

row() { printf '| %s | %s | %s s | %s s | %s |\n' "$1" "$2" "$3" "$4" "$(ratio "$3" "$4")"; }
echo "| input | query | tracekit sql (CPU) | reference (CPU) | ratio |"
echo "|---|---|---|---|---|"
for f in "$perf_data" "$ctf"; do
  [ -e "$f" ] || { echo "(missing input $f: skipped)"; continue; }
  n=$("$TK" sql -q --format csv "$f" 'SELECT count(*) FROM event' | tail -1)
  name="$(basename "$f") ($n events)"
  row "$name" "name, count(*) GROUP BY name vs stats" \
    "$(cpu "$TK" sql -q "$f" 'SELECT name, count(*) FROM event GROUP BY name')" \
    "$(cpu "$TK" stats -q "$f")"
  row "$name" "count(*) ... WHERE json_extract(args) vs print --format json" \
    "$(cpu "$TK" sql -q "$f" "SELECT count(*) FROM event WHERE json_extract(args, '\$.perf_period') > 0 OR json_extract(args, '\$.str') IS NOT NULL")" \
    "$(cpu "$TK" print -q --format json "$f")"
  if [ "$f" = "$perf_data" ]; then
    row "$name" "top symbols (sample x callsite x stack_frame) vs report" \
      "$(cpu "$TK" sql -q "$f" 'SELECT f.name, f.dso, count(*) FROM sample s JOIN callsite c ON c.id = s.callsite_id JOIN stack_frame f ON f.id = c.frame_id GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 20')" \
      "$(cpu "$TK" report -q "$f")"
  fi
  rm -f "$work/x.sqlite"
  /usr/bin/time -o "$work/time" -f '%U %S %e' "$TK" convert -q "$f" -o "$work/x.sqlite" >/dev/null 2>&1
  s=$(tail -1 "$work/time")
  rows=$(sqlite3 "$work/x.sqlite" 'SELECT count(*) FROM event' 2>/dev/null || echo "$n")
  echo "| $name | convert -o x.sqlite | $(awk -v s="$s" 'BEGIN { split(s, a, " "); printf "%.2f s CPU, %.2f s wall", a[1] + a[2], a[3] }') | $(du -m "$work/x.sqlite" | cut -f1) MB | $(awk -v s="$s" -v n="$rows" 'BEGIN { split(s, a, " "); printf "%.0f k events/s (wall)", n / a[3] / 1000 }') |"
  rm -f "$work/x.sqlite"
done
