#!/usr/bin/env bash
# `tracekit stats` counts perf.data with a lean scan (src/perf/
# perf_stats_scan.c); TRACEKIT_STATS_FULL=1 forces the full path (every
# record through the session). Both must print the same bytes on stdout
# and stderr and exit the same, on every perf.data test file, from stdin,
# and on damaged copies: cut at several places (truncation: warning or
# error at the last complete record) and with one record size zeroed
# (error with file and offset).
set -u
: "${TK:?}" "${TK_TESTDATA:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0

same() { # label, then the stats arguments (stdin from $in when set)
  local label=$1; shift
  "$TK" stats "$@" <"${in:-/dev/null}" >"$tmp/l.out" 2>"$tmp/l.err"; local lrc=$?
  TRACEKIT_STATS_FULL=1 "$TK" stats "$@" <"${in:-/dev/null}" >"$tmp/f.out" 2>"$tmp/f.err"
  local frc=$?
  if [ $lrc -eq $frc ] && cmp -s "$tmp/l.out" "$tmp/f.out" && cmp -s "$tmp/l.err" "$tmp/f.err"; then
    pass=$((pass+1))
  else
    echo "FAIL $label: lean rc $lrc, full rc $frc"
    diff "$tmp/l.out" "$tmp/f.out" | head -5; diff "$tmp/l.err" "$tmp/f.err" | head -5
    fail=$((fail+1))
  fi
}

cd "$TK_TESTDATA/perf" || exit 1
for f in */*; do
  [ -f "$f" ] && same "$f" "$f"
done
# every test file was compared (a moved test data tree fails, not passes)
[ $pass -ge 90 ] || { echo "FAIL: only $pass test files compared"; fail=$((fail+1)); }
for f in quipper/perf.data.piped.target-3.8 lpd/sleep.compressed2.pipe.data pdc/with-callchain.perf.data; do
  in=$f same "stdin $f" -
done
in=

# Damaged copies of a few files (file mode, several attrs, pipe mode,
# compressed): cut at fractions of the size, and a record size zeroed.
for f in pdc/multi-event-single-process.perf.data quipper/perf.data.lost_samples-4.4 \
  quipper/perf.data.piped.target-3.8 lpd/sleep.compressed.data; do
  size=$(stat -c %s "$f")
  for frac in 13 37 50 71 97; do
    head -c $((size * frac / 100)) "$f" >"$tmp/cut"
    same "$f cut at $frac%" "$tmp/cut"
  done
  /usr/bin/python3 - "$f" "$tmp/zero" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
# pipe mode: records from byte 16; file mode: the data section
pos = 16 if struct.unpack_from('<Q', d, 8)[0] == 16 else struct.unpack_from('<Q', d, 40)[0]
n = 0
while pos + 8 <= len(d):
    size = struct.unpack_from('<H', d, pos + 6)[0]
    if size < 8:
        break
    n += 1
    if n == 40:  # zero the 40th record's size
        struct.pack_into('<H', d, pos + 6, 0)
        break
    pos += size
open(sys.argv[2], 'wb').write(d)
PY
  same "$f with a zero record size" "$tmp/zero"
done

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
