#!/usr/bin/env bash
# Oracle: `tracekit sql` over perf.data gives the answers other tools give.
# - samples per event and per CPU (sample and event tables) = `tracekit stats`,
#   on every perf.data of ../shared/testdata that stats reads; the perf
#   counter tracks' last values = the summed periods print --format json gives;
# - the top symbols (sample x callsite x stack_frame, weighted by period) =
#   `tracekit report`, per symbol and image;
# - sample x thread x stack_frame, one row per sample in order = `perf script`'s
#   time, tid and symbol per sample, and its comm for every sample taken after
#   the thread's last COMM (thread.name is the thread's last name, as in
#   Perfetto), on recordings made here with and without call graphs.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}"
if ! "$TK" sql /dev/null 'SELECT 1' 2>&1 | grep -qv 'not available'; then
  echo "SKIP: tracekit built without sqlite3"; exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0; checked=0
fail() { echo "FAIL $*"; failed=$((failed+1)); }

# "event NAME\tN" lines with NAME's modifier suffix left out: stats names
# events as perf report --stats does (evsel__name: "cycles:HG" without
# EVENT_DESC, and a pipe's as if it had none), SQL as the file names them
# (the attr's name: "cycles", or EVENT_DESC's "cycles:P"). Counts per event
# are what these checks compare.
base_names() {
  sed -E 's/^(event [^	]*):[ukhHGpPSDIWe]+	/\1	/' | LC_ALL=C sort
}

# "EVENT N" per event with samples, and "cpu N" per CPU, from stats.
stats_counts() {
  "$TK" stats -q "$1" | awk '
    /^Aggregated stats:/ { next }
    / stats:$/ { ev = $0; sub(/ stats:$/, "", ev); next }
    ev != "" && /SAMPLE events:/ { if ($3 > 0) print "event " ev "\t" $3; ev = ""; next }
    /^  cpu +[0-9]+:/ { c = $2; sub(/:/, "", c); print "cpu " c "\t" $3 }' | base_names
}

sql_counts() {
  "$TK" sql -q --format csv "$1" "
    SELECT 'event ' || event, count(*) FROM sample GROUP BY event
    UNION ALL SELECT 'cpu ' || cpu, count(*) FROM sample WHERE cpu IS NOT NULL GROUP BY cpu" |
    tail -n +2 | tr ',' '\t' | base_names
}

check_stats() {
  local data=$1 name=$2
  stats_counts "$data" >"$work/$name.want" 2>/dev/null || return 0
  [ -s "$work/$name.want" ] || return 0
  if ! sql_counts "$data" >"$work/$name.got" 2>"$work/$name.err"; then
    fail "$name: sql failed: $(head -2 "$work/$name.err")"; return
  fi
  checked=$((checked+1))
  if ! diff -u "$work/$name.want" "$work/$name.got" >"$work/$name.diff"; then
    fail "$name: samples per event/CPU differ from stats"; head -20 "$work/$name.diff"; return
  fi
  # the fast path (no args column: parsed records) = the model path
  local cols="count(*), min(ts), max(ts), sum(ts % 1000003), sum(cpu), sum(pid), sum(tid), group_concat(DISTINCT name)"
  if [ "$("$TK" sql -q --format csv "$data" "SELECT $cols FROM event")" != \
       "$("$TK" sql -q --format csv "$data" "SELECT $cols, 0 FROM event WHERE length(args) >= 0" | sed 's/,0$//')" ]; then
    fail "$name: event rows without args differ from rows with args"
  fi
  # the event table holds the same samples under the same names
  "$TK" sql -q --format csv "$data" \
    "SELECT 'event ' || name, count(*) FROM event GROUP BY name" |
    tail -n +2 | tr ',' '\t' | base_names >"$work/$name.ev"
  grep '^event ' "$work/$name.want" | diff -u - "$work/$name.ev" >"$work/$name.evdiff" ||
    { fail "$name: event table counts differ from stats"; head -10 "$work/$name.evdiff"; }
  # perf counts: the last value of each "<event> cpu N" counter track = the
  # sum of the periods print --format json gives that event's samples there
  "$TK" print -q --format json "$data" 2>/dev/null | /usr/bin/python3 -c '
import json, sys
from collections import Counter
c = Counter()
for line in sys.stdin:
    e = json.loads(line)
    if e.get("type") == "sample" and e.get("period") and e.get("time") is not None:
        c["%s cpu %s" % (e["event"], e["cpu"]) if e.get("cpu") is not None else e["event"]] += int(e["period"])
for k, v in sorted(c.items()): print("%s\t%d" % (k, v))' | LC_ALL=C sort >"$work/$name.cwant"
  "$TK" sql -q --format csv "$data" "
    SELECT t.name, CAST(max(c.value) AS INTEGER) FROM counter c JOIN track t ON t.id = c.track
    WHERE t.type = 'counter' GROUP BY t.name" | tail -n +2 | /usr/bin/python3 -c '
import csv, sys
for r in csv.reader(sys.stdin): print("\t".join(r))' | LC_ALL=C sort >"$work/$name.cgot"
  diff -u "$work/$name.cwant" "$work/$name.cgot" >"$work/$name.cdiff" ||
    { fail "$name: perf counter tracks differ from the summed periods of print --format json"; head -10 "$work/$name.cdiff"; }
}

# Top symbols: "symbol<TAB>image<TAB>weight" from report and from SQL.
check_report() {
  local data=$1 name=$2
  "$TK" report -q "$data" >"$work/$name.rep" 2>/dev/null || return 0
  # lines "  WEIGHT  PCT%  CUM%  SYMBOL  IMAGE" of the first event
  awk '/^=+$/ { on++; next } on == 1 && /^ +[0-9]+ +[0-9.]+% +[0-9.]+%  / {
         line = $0; w = $1; sub(/^ +[0-9]+ +[0-9.]+% +[0-9.]+%  /, "", line)
         n = split(line, a, /  +/); img = a[n]; sym = a[1]
         for (i = 2; i < n; i++) sym = sym "  " a[i]
         print sym "\t" img "\t" w }
       on == 1 && /^$/ { exit }' "$work/$name.rep" | LC_ALL=C sort >"$work/$name.rwant"
  [ -s "$work/$name.rwant" ] || return 0
  local ev
  ev=$(awk '/^=+$/ { getline; print $1; exit }' "$work/$name.rep")
  "$TK" sql -q --format csv "$data" "
    SELECT coalesce(f.name, printf('0x%016x', f.address)), coalesce(f.dso, '[unknown]'),
           sum(CASE WHEN s.period > 0 THEN s.period ELSE 1 END)
    FROM sample s LEFT JOIN callsite c ON c.id = s.callsite_id
    LEFT JOIN stack_frame f ON f.id = c.frame_id
    WHERE s.event = '$ev' GROUP BY 1, 2" | tail -n +2 |
    /usr/bin/python3 -c '
import csv, sys
for r in csv.reader(sys.stdin): print("\t".join(r))' | LC_ALL=C sort >"$work/$name.rgot"
  # rows left "[unknown]" (no map) are summed per image on both sides
  awk -F'\t' '$1 == "[unknown]" { u[$2] += $3; next } { print } END { for (k in u) printf "[unknown]\t%s\t%.0f\n", k, u[k] }' \
    "$work/$name.rgot" | LC_ALL=C sort >"$work/$name.rgot2"
  awk -F'\t' '$1 == "[unknown]" { u[$2] += $3; next } { print } END { for (k in u) printf "[unknown]\t%s\t%.0f\n", k, u[k] }' \
    "$work/$name.rwant" | LC_ALL=C sort >"$work/$name.rwant2"
  checked=$((checked+1))
  if diff -u "$work/$name.rwant2" "$work/$name.rgot2" >"$work/$name.rdiff"; then
    echo "ok $name: $(wc -l <"$work/$name.rwant2") symbols = tracekit report"
  else
    fail "$name: top symbols differ from tracekit report"; head -20 "$work/$name.rdiff"
  fi
}

# sample x thread x stack_frame vs perf script.
check_script() {
  local data=$1 name=$2
  perf script -i "$data" --show-task-events -F comm,tid,time,ip,sym 2>/dev/null >"$work/$name.ps" || return 0
  # per sample: "time tid comm sym" (leaf frame: the first chain line, or
  # the symbol on the sample's own line); last COMM time per tid
  awk -v out="$work/$name.pwant" -v comms="$work/$name.comms" '
    function flush() { if (have) print t "\t" tid "\t" comm "\t" (sym == "" ? "[unknown]" : sym) > out; have = 0 }
    /PERF_RECORD_COMM/ { flush(); for (i = 1; i <= NF; i++) if ($i ~ /:$/ && $i ~ /^[0-9]+\.[0-9]+:$/) { tt = $i; sub(/:$/, "", tt) }
      split($NF, a, "/"); ct = a[2]; last[ct] = tt; next }
    /PERF_RECORD_/ { flush(); next }
    /^[^ \t]/ || /^ +[^ ]+ +[0-9]+ +[0-9]+\.[0-9]+:/ {
      flush()
      match($0, /[0-9]+ +[0-9]+\.[0-9]+:/); head = substr($0, 1, RSTART - 1); rest = substr($0, RSTART)
      sub(/ +$/, "", head); sub(/^ +/, "", head); comm = head
      split(rest, r, /[ :]+/); tid = r[1]; t = r[2]
      tail = rest; sub(/^[0-9]+ +[0-9]+\.[0-9]+: */, "", tail)
      sym = ""; need = 1; have = 1
      if (tail != "") { n = split(tail, f, / +/); sym = f[2]; for (i = 3; i <= n; i++) sym = sym " " f[i]; need = 0 }
      next }
    need && NF >= 2 { sym = $2; for (i = 3; i <= NF; i++) sym = sym " " $i; need = 0; next }
    END { flush(); for (k in last) print k "\t" last[k] > comms }' "$work/$name.ps"
  touch "$work/$name.comms"
  "$TK" sql -q --format csv "$data" "
    SELECT printf('%d.%06d', s.ts / 1000000000, (s.ts / 1000) % 1000000), s.tid, t.name,
           coalesce(f.name, '[unknown]')
    FROM sample s LEFT JOIN thread t ON t.utid = s.utid
    LEFT JOIN callsite c ON c.id = s.callsite_id LEFT JOIN stack_frame f ON f.id = c.frame_id
    ORDER BY s.rowid" | tail -n +2 |
    /usr/bin/python3 -c '
import csv, sys
for r in csv.reader(sys.stdin): print("\t".join(r))' >"$work/$name.pgot"
  checked=$((checked+1))
  # time, tid, symbol: every sample, in order
  if ! diff <(cut -f1,2,4 "$work/$name.pwant") <(cut -f1,2,4 "$work/$name.pgot") >"$work/$name.pdiff"; then
    fail "$name: sample x stack_frame differs from perf script (time tid sym)"; head -10 "$work/$name.pdiff"; return
  fi
  # comm: samples at or after the thread's last COMM
  local bad
  bad=$(paste "$work/$name.pwant" "$work/$name.pgot" | awk -F'\t' -v comms="$work/$name.comms" '
    BEGIN { while ((getline l < comms) > 0) { split(l, a, "\t"); last[a[1]] = a[2] } }
    { if (($2 in last) && $1 + 0 < last[$2] + 0) next; n++; if ($3 != $7) { bad++; if (bad < 4) print "  " $0 > "/dev/stderr" } }
    END { print bad + 0 " " n + 0 }')
  if [ "${bad%% *}" != 0 ] || [ "${bad##* }" = 0 ]; then
    fail "$name: thread names differ from perf script's comm ($bad: mismatches, compared)"; return
  fi
  echo "ok $name: $(wc -l <"$work/$name.pwant") samples: time, tid, symbol and comm = perf script"
}

if [ -n "${TK_TESTDATA:-}" ] && [ -d "$TK_TESTDATA/perf" ]; then
  while IFS= read -r f; do
    n=td_$(echo "${f#"$TK_TESTDATA/perf/"}" | tr / _)
    check_stats "$f" "$n"
  done < <(find "$TK_TESTDATA/perf" -type f | LC_ALL=C sort)
  echo "stats: $checked perf.data files agree"
  for f in pdc/with-callchain.perf.data pdc/multi-event-single-process.perf.data lpd/sleep.data; do
    [ -f "$TK_TESTDATA/perf/$f" ] && check_report "$TK_TESTDATA/perf/$f" "rep_$(echo "$f" | tr / _)"
  done
fi

if command -v perf >/dev/null && cc -O1 -g -fno-omit-frame-pointer -o "$work/workload" \
     "$TK_SOURCE_DIR/examples/workload.c" 2>/dev/null &&
   perf record -q -o "$work/probe.data" -- true >/dev/null 2>&1; then
  for mode in plain g; do
    opt=(); [ $mode = g ] && opt=(-g)
    data="$work/rec-$mode.data"
    if perf record -q -e cpu-clock "${opt[@]}" -o "$data" -- "$work/workload" >/dev/null 2>&1; then
      check_stats "$data" "rec_$mode"
      # GROUP BY name is answered in one counting pass (orderByConsumed)
      "$TK" sql -q "$data" "EXPLAIN QUERY PLAN SELECT name, count(*) FROM event GROUP BY name" |
        grep -q 'B-TREE' && fail "rec_$mode: GROUP BY name still sorts"
      check_report "$data" "rec_$mode"
      check_script "$data" "rec_$mode"
    fi
  done
  # two events of one name: one event_<class> table each, together every event
  data="$work/dup.data"
  if perf record -q -e cpu-clock -e cpu-clock -o "$data" -- "$work/workload" >/dev/null 2>&1; then
    checked=$((checked+1))
    tables=$("$TK" sql -q --format csv "$data" "SELECT name FROM temp.sqlite_master WHERE name LIKE 'event\_%' ESCAPE '\\'" | tail -n +2)
    sum=0
    for t in $tables; do sum=$((sum + $("$TK" sql -q --format csv "$data" "SELECT count(*) FROM \"$t\"" | tail -1))); done
    total=$("$TK" sql -q --format csv "$data" "SELECT count(*) FROM event" | tail -1)
    [ "$(echo "$tables" | wc -w)" = 2 ] && [ "$sum" = "$total" ] ||
      fail "two classes named alike: tables '$tables' hold $sum events of $total"
  fi
else
  echo "perf cannot record here: recordings skipped"
fi
if [ -n "${TK_TESTDATA:-}" ] && command -v perf >/dev/null; then
  for f in pdc/with-callchain.perf.data lpd/sleep.data; do
    d="$TK_TESTDATA/perf/$f"
    [ -f "$d" ] && perf script -i "$d" >/dev/null 2>&1 && check_script "$d" "ps_$(echo "$f" | tr / _)"
  done
fi
# Several inputs: each file's rows as when read alone, ids numbered across
# files without clashes (joins on ids stay within a file).
if [ -n "${TK_TESTDATA:-}" ]; then
  a="$TK_TESTDATA/perf/pdc/multi-event-single-process.perf.data"; b="$TK_TESTDATA/perf/lpd/sleep.data"
  if [ -f "$a" ] && [ -f "$b" ]; then
    checked=$((checked+1))
    q='SELECT name, count(*), sum(tid) FROM event GROUP BY name ORDER BY name'
    both=$("$TK" sql -q --format csv "$a" "$b" "$q" | tail -n +2)
    alone=$( { "$TK" sql -q --format csv "$a" "$q"; "$TK" sql -q --format csv "$b" "$q"; } | grep -v '^name,' | LC_ALL=C sort)
    [ "$both" = "$alone" ] || fail "two inputs: event rows '$both', alone '$alone'"
    got=$("$TK" sql -q --format csv "$a" "$b" "
      SELECT (SELECT count(*) FROM sample), (SELECT count(*) FROM sample s JOIN thread t ON t.utid = s.utid AND t.file = s.file),
             (SELECT count(DISTINCT id) = count(*) FROM stack_frame),
             (SELECT count(*) FROM sample s JOIN callsite c ON c.id = s.callsite_id JOIN stack_frame f ON f.id = c.frame_id AND f.file = s.file)" | tail -1)
    n=${got%%,*}
    [ "$got" = "$n,$n,1,$n" ] || fail "two inputs: joins across ids: $got"
  fi
fi
echo "$checked checks, $failed failed"
[ "$checked" -gt 0 ] || exit 77
[ "$failed" -eq 0 ]
