#!/usr/bin/env bash
# Oracle: Debian's sqlite3 shell reads what tracekit makes.
# - the loadable extension build/lib/tracekit_sqlite.so: `.load`, CREATE
#   VIRTUAL TABLE t USING tracekit('FILE'), tracekit_attach('FILE'); the
#   counts it gives = `tracekit stats` (samples of a perf.data, events per
#   track of a CPEL file) and a damaged file fails the query with the
#   reader's error;
# - `tracekit convert FILE -o x.sqlite`: every table, read back by the shell,
#   has the rows `tracekit sql` gives, and its indexes exist.
set -u
: "${TK:?}" "${TK_BUILD_DIR:?}" "${TK_TESTDATA:?}"
command -v sqlite3 >/dev/null || { echo "SKIP: no sqlite3 shell (apt-get install sqlite3)"; exit 77; }
ext="$TK_BUILD_DIR/lib/tracekit_sqlite.so"
[ -f "$ext" ] || { echo "SKIP: tracekit built without sqlite3"; exit 77; }
# A sanitizer build's extension needs the sanitizer runtime loaded first.
if ldd "$ext" | grep -q 'libasan'; then echo "SKIP: sanitizer build"; exit 77; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
fail() { echo "FAIL $*"; failed=$((failed+1)); }
perf="$TK_TESTDATA/perf/pdc/multi-event-single-process.perf.data"
cpel="$TK_TESTDATA/cpel/vpp-new.cpel"

# extension: samples per event = stats
want=$("$TK" stats "$perf" | awk '/ stats:$/ && !/^Aggregated/ { ev = $1; next } ev && /SAMPLE events:/ { print ev "|" $3; ev = "" }' | sort)
got=$(sqlite3 :memory: ".load ${ext%.so}" \
  "CREATE VIRTUAL TABLE t USING tracekit('$perf');" \
  "SELECT name, count(*) FROM t GROUP BY name ORDER BY name;" 2>&1)
[ -n "$want" ] && [ "$got" = "$want" ] || fail "extension: event counts '$got', stats '$want'"
got=$(sqlite3 :memory: ".load ${ext%.so}" "SELECT tracekit_attach('$perf');" \
  "SELECT event, count(*) FROM sample GROUP BY event ORDER BY event;" 2>&1 | tail -n +2)
[ "$got" = "$want" ] || fail "extension: tracekit_attach: sample counts '$got', stats '$want'"
# CPEL tracks
want=$("$TK" stats "$cpel" | awk '/^per track:/ { on = 1; next } /^per / { on = 0 } on { n = $1; $1 = ""; $2 = ""; sub(/^ +/, ""); print $0 "|" n }' | sort)
got=$(sqlite3 :memory: ".load ${ext%.so}" \
  "CREATE VIRTUAL TABLE c USING tracekit('$cpel');" \
  "SELECT json_extract(args, '\$.track'), count(*) FROM c GROUP BY 1 ORDER BY 1;" 2>&1)
[ -n "$want" ] && [ "$got" = "$want" ] || fail "extension: CPEL tracks '$got', stats '$want'"
# a damaged file: the reader's error, no crash
bad="$TK_TESTDATA/cpel/bad-truncated.cpel"
perr=$("$TK" print "$bad" 2>&1 >/dev/null | tail -1)
serr=$(sqlite3 :memory: ".load ${ext%.so}" "CREATE VIRTUAL TABLE b USING tracekit('$bad', 'table=track');" \
  "SELECT count(*) FROM b;" 2>&1); rc=$?
[ $rc -ne 0 ] && [ $rc -lt 128 ] && [[ "$serr" == *"${perr#tracekit: }"* ]] ||
  fail "extension: damaged file: rc $rc, '$serr' (print: '$perr')"
echo "extension: checked"

# convert -o x.sqlite, read back by the shell
for f in "$perf" "$cpel" "$TK_TESTDATA/ctf/babeltrace/succeed/wk-heartbeat-u" "$TK_TESTDATA/dcpi/simple.prof"; do
  [ -e "$f" ] || continue
  db="$work/$(basename "$f").sqlite"
  if ! "$TK" convert -q "$f" -o "$db" 2>"$work/err"; then
    fail "convert $f: $(head -2 "$work/err")"; continue
  fi
  for t in $(sqlite3 "$db" "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"); do
    a=$(sqlite3 "$db" "SELECT count(*) FROM \"$t\"")
    b=$("$TK" sql -q --format csv "$f" "SELECT count(*) FROM \"$t\"" | tail -1)
    [ "$a" = "$b" ] || fail "$db: $t has $a rows, tracekit sql $b"
  done
  # content, not only counts: the event table's first rows
  a=$(sqlite3 -csv "$db" "SELECT ts, cpu, pid, tid, name, args FROM event LIMIT 20")
  b=$("$TK" sql -q --format csv "$f" "SELECT ts, cpu, pid, tid, name, args FROM event LIMIT 20" | tail -n +2)
  [ "$a" = "$b" ] || fail "$db: event rows differ from tracekit sql"
  [ "$(sqlite3 "$db" "SELECT count(*) FROM sqlite_master WHERE type = 'index'")" -ge 10 ] ||
    fail "$db: indexes missing"
  echo "ok $(basename "$f"): $(sqlite3 "$db" "SELECT count(*) FROM sqlite_master WHERE type = 'table'") tables read back by sqlite3"
done
# a failed conversion leaves nothing behind
"$TK" convert -q "$TK_TESTDATA/cpel/bad-truncated.cpel" -o "$work/bad.sqlite" 2>/dev/null &&
  fail "convert of a damaged file succeeded"
ls "$work" | grep -q '^bad\.sqlite' && fail "a failed conversion left $(ls "$work" | grep bad)"
echo "$failed failed"
[ "$failed" -eq 0 ]
