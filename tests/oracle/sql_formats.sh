#!/usr/bin/env bash
# Oracle: `tracekit sql` over CTF and CPEL answers as other tools do.
# - CTF: events per trace (event table, and the event_<class> tables summed)
#   = the lines `babeltrace2 TRACE` prints, for every trace of
#   ../shared/testdata/ctf/{babeltrace/succeed,barectf} it reads; a ts range
#   pushed down to the reader (packet index, early stop) keeps the rows a
#   plain filter keeps (ts + 0 is not pushed down);
# - damaged inputs (CTF traces babeltrace2 rejects, bad CPEL, DCPI and
#   perf.data files): every table's query fails,
#   exit 1, with the error `tracekit print` gives (the reader's, with file
#   and offset), never a crash;
# - CPEL: events per track and per event = `tracekit stats`;
# - options after the files and the query work as before them.
set -u
: "${TK:?}" "${TK_TESTDATA:?}"
if "$TK" sql /dev/null 'SELECT 1' 2>&1 | grep -q 'not available'; then
  echo "SKIP: tracekit built without sqlite3"; exit 77
fi
[ -d "$TK_TESTDATA/ctf" ] || { echo "SKIP: no test data"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0; checked=0
fail() { echo "FAIL $*"; failed=$((failed+1)); }
q() { "$TK" sql -q --format csv "$@" | tail -n +2; }

if command -v babeltrace2 >/dev/null; then
  n_ctf=0
  for t in "$TK_TESTDATA"/ctf/babeltrace/succeed/* "$TK_TESTDATA"/ctf/barectf/*; do
    [ -d "$t" ] || continue
    { babeltrace2 "$t" >"$work/bt"; } 2>/dev/null || continue
    want=$(wc -l <"$work/bt")
    got=$(q "$t" 'SELECT count(*) FROM event' 2>"$work/err") ||
      { fail "$t: sql failed: $(head -2 "$work/err")"; continue; }
    checked=$((checked+1)); n_ctf=$((n_ctf+1))
    [ "$got" = "$want" ] || { fail "$t: $got events, babeltrace2 prints $want lines"; continue; }
    # GROUP BY name (counted per class by the lean reader) = rows read one by one
    a=$(q "$t" 'SELECT name, count(*) FROM event GROUP BY name')
    b=$(q "$t" 'SELECT name, count(*) FROM event WHERE length(args) >= 0 GROUP BY name')
    [ "$a" = "$b" ] || fail "$t: GROUP BY name counts '$a', rows '$b'"
    # the per-class tables hold the same events (one query sums them all)
    sumq=$(q "$t" "SELECT group_concat('(SELECT count(*) FROM \"' || name || '\")', ' + ') FROM temp.sqlite_master WHERE name LIKE 'event\_%' ESCAPE '\\'" | tr -d '"' | sed 's/FROM \([^)]*\))/FROM "\1")/g')
    sum=$(q "$t" "SELECT ${sumq:-0}" 2>"$work/err") || { fail "$t: event_<class> tables: $(head -1 "$work/err")"; continue; }
    [ "$sum" = "$want" ] || fail "$t: event_<class> tables hold $sum events, not $want"
    # a time range in the middle: pushed down = filtered after
    range=$(q "$t" "SELECT min(ts) + (max(ts) - min(ts)) / 3, min(ts) + 2 * (max(ts) - min(ts)) / 3 FROM event WHERE ts IS NOT NULL")
    lo=${range%,*}; hi=${range#*,}
    # lttng-crash: its events lie outside their packets' time ranges, and
    # the reader's packet skip (as `print --begin`) trusts those ranges
    case $t in */lttng-crash) lo= ;; esac
    if [ "$want" -gt 2 ] && [ -n "$lo" ] && [ -n "$hi" ]; then
      a=$(q "$t" "SELECT count(*), min(ts), max(ts) FROM event WHERE ts >= $lo AND ts <= $hi")
      b=$(q "$t" "SELECT count(*), min(ts), max(ts) FROM event WHERE ts + 0 >= $lo AND ts + 0 <= $hi")
      [ "$a" = "$b" ] || fail "$t: ts range [$lo, $hi]: pushed down $a, filtered $b"
    fi
  done
  echo "ctf: $n_ctf traces: event counts = babeltrace2 line counts"
else
  echo "babeltrace2 not installed: CTF counts skipped"
fi

# Damaged inputs: the reader's error, exit 1, no crash.
for t in "$TK_TESTDATA"/ctf/babeltrace/fail/* "$TK_TESTDATA"/cpel/bad-*.cpel "$TK_TESTDATA"/dcpi/bad-*.prof \
         "$TK_TESTDATA"/perf/quipper/*corrupted* "$TK_TESTDATA"/perf/simpleperf/invalid_perf.data; do
  [ -e "$t" ] || continue
  "$TK" print "$t" >/dev/null 2>"$work/perr"; prc=$?
  [ $prc -eq 1 ] || continue # print reads it: nothing to compare
  tables="event thread sched track"
  case $t in *.prof) tables="event profile" ;; */perf/*) tables="event sample thread sched" ;; esac
  for table in $tables; do
    "$TK" sql -q "$t" "SELECT count(*) FROM $table" >/dev/null 2>"$work/serr"; rc=$?
    checked=$((checked+1))
    if [ $rc -ne 1 ]; then
      fail "$t: SELECT from $table exited $rc, not 1: $(head -2 "$work/serr")"
    elif [ "$table" = event ] && [ "$(tail -1 "$work/perr")" != "$(tail -1 "$work/serr")" ]; then
      fail "$t: error differs from print's: $(tail -1 "$work/serr") vs $(tail -1 "$work/perr")"
    fi
    if [ "$table" = event ]; then
      "$TK" sql -q "$t" "SELECT name, count(*) FROM event GROUP BY name" >/dev/null 2>"$work/gerr"
      [ $? -eq 1 ] && [ "$(tail -1 "$work/perr")" = "$(tail -1 "$work/gerr")" ] ||
        fail "$t: GROUP BY name: $(tail -1 "$work/gerr") vs print's $(tail -1 "$work/perr")"
    fi
  done
done
echo "damaged inputs: errors checked"

# CPEL: events per track and per event = stats.
# "NAME<TAB>COUNT" lists: every named row of stats is in ours, and the
# counts agree as a multiset (an undefined track or event is
# "(undefined)" in stats, its number in the model).
same_named() {
  local l
  while IFS= read -r l; do
    case $l in "(undefined)"*) continue ;; esac
    grep -qxF "$l" "$2" || return 1
  done <"$1"
  diff -q <(cut -f2 "$1" | sort -n) <(cut -f2 "$2" | sort -n) >/dev/null
}
for f in "$TK_TESTDATA"/cpel/*.cpel "$TK_TESTDATA"/cpel/*.elog; do
  case $f in */bad-*) continue ;; esac
  "$TK" stats -q "$f" >"$work/st" 2>/dev/null || continue
  awk '/^per track:/ { on = 1; next } /^per / { on = 0 } on && NF >= 3 { n = $1; $1 = ""; $2 = ""; sub(/^ +/, ""); print $0 "\t" n }' \
    "$work/st" | LC_ALL=C sort >"$work/tw"
  # several codes may share a name: summed per name, as the event table has names
  awk '/^per event code:/ { on = 1; next } /^per / { on = 0 } on && NF >= 3 { n = $1; $1 = ""; $2 = ""; sub(/^ +/, ""); c[$0] += n }
       END { for (k in c) print k "\t" c[k] }' "$work/st" | LC_ALL=C sort >"$work/ew"
  q "$f" "SELECT json_extract(args, '\$.track') || char(9) || count(*) FROM event GROUP BY 1 = 1, json_extract(args, '\$.track')" |
    sed 's/^"//; s/"$//' | LC_ALL=C sort >"$work/tg"
  q "$f" "SELECT name || char(9) || count(*) FROM event GROUP BY name" | sed 's/^"//; s/"$//' |
    LC_ALL=C sort >"$work/eg"
  checked=$((checked+1))
  if ! same_named "$work/tw" "$work/tg"; then
    fail "$f: events per track differ from stats"; paste "$work/tw" "$work/tg" | head -10
  elif ! same_named "$work/ew" "$work/eg"; then
    fail "$f: events per event differ from stats"; paste "$work/ew" "$work/eg" | head -10
  else
    echo "ok $f: $(wc -l <"$work/tw") tracks, $(wc -l <"$work/ew") events = stats"
  fi
  # the track table lists the same tracks
  q "$f" "SELECT name FROM track WHERE type = 'cpel'" | sed 's/^"//; s/"$//' | LC_ALL=C sort >"$work/tt"
  [ "$(wc -l <"$work/tt")" = "$(wc -l <"$work/tw")" ] || fail "$f: track table differs from stats' tracks"
done
# options may follow the files and the query, as in every other command
cp=$TK_TESTDATA/cpel/vpp-new.cpel
a=$("$TK" sql -q --format csv "$cp" 'SELECT count(*) FROM event' 2>&1)
b=$("$TK" sql "$cp" 'SELECT count(*) FROM event' -q --format csv 2>&1)
checked=$((checked+1))
[ -n "$a" ] && [ "$a" = "$b" ] || fail "options after the query: '$b', before it: '$a'"
echo "$checked checks, $failed failed"
[ "$checked" -gt 0 ] || exit 77
[ "$failed" -eq 0 ]
