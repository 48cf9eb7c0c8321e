#!/usr/bin/env bash
# CPEL / VPP elog conformance over ../shared/testdata/cpel:
# - print --format cpeldump is byte-identical to VPP cpeldump's output
#   (expected/*.cpeldump; the -le twins print the same);
# - every bad-*.cpel ends in a clear error (exit 1, "tracekit: FILE: offset");
# - convert X.elog -o Y.cpel equals VPP c2cpel's output but for the file
#   date (bytes 4..7);
# - convert X.cpel -o Y.cpel is a byte-identical copy, and --byte-order
#   turns each file into its twin.
set -u
D=$TK_TESTDATA/cpel
[ -d "$D" ] || { echo "no test data at $D"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

for f in basic basic-le multi-table multi-table-le vpp-new vpp-small; do
  want=$D/expected/${f%-le}.cpeldump
  "$TK" print --format cpeldump "$D/$f.cpel" >"$tmp/out" 2>"$tmp/err" || bad "print $f exited $?"
  cmp -s "$tmp/out" "$want" || { bad "print --format cpeldump $f differs from cpeldump"; diff "$want" "$tmp/out" | head -5; }
  "$TK" convert "$D/$f.cpel" -o "$tmp/copy.cpel" 2>/dev/null || bad "copy $f exited $?"
  cmp -s "$tmp/copy.cpel" "$D/$f.cpel" || bad "copy of $f is not byte-identical"
done

for pair in basic:basic-le multi-table:multi-table-le; do
  be=${pair%%:*} le=${pair##*:}
  "$TK" convert --byte-order little "$D/$be.cpel" -o "$tmp/le.cpel" 2>/dev/null && cmp -s "$tmp/le.cpel" "$D/$le.cpel" \
    || bad "$be -> little-endian is not $le"
  "$TK" convert --byte-order big "$D/$le.cpel" -o "$tmp/be.cpel" 2>/dev/null && cmp -s "$tmp/be.cpel" "$D/$be.cpel" \
    || bad "$le -> big-endian is not $be"
done

for f in "$D"/bad-*.cpel; do
  "$TK" print --format cpeldump "$f" >/dev/null 2>"$tmp/err"
  rc=$?
  [ $rc = 1 ] || bad "$(basename "$f"): exit $rc, expected 1"
  grep -q "^tracekit: .*$(basename "$f"): offset 0x[0-9a-f]*: " "$tmp/err" || bad "$(basename "$f"): unclear error: $(cat "$tmp/err")"
  "$TK" info "$f" >/dev/null 2>&1 && [ "$(basename "$f")" != bad-string-offset.cpel ] && bad "info accepted $(basename "$f")"
done

for f in vpp-new vpp-small; do
  "$TK" convert "$D/$f.elog" -o "$tmp/$f.cpel" || bad "convert $f.elog exited $?"
  # the file date (bytes 5..8, 1-based) is the only allowed difference
  diffs=$(cmp -l "$tmp/$f.cpel" "$D/$f.cpel" 2>&1 | awk '$1 < 5 || $1 > 8' | wc -l)
  [ "$(stat -c %s "$tmp/$f.cpel")" = "$(stat -c %s "$D/$f.cpel")" ] || bad "$f.elog -> cpel: size differs from c2cpel"
  [ "$diffs" = 0 ] || bad "$f.elog -> cpel differs from c2cpel beyond the date ($diffs bytes)"
  "$TK" print --format cpeldump "$tmp/$f.cpel" | cmp -s - "$D/expected/$f.cpeldump" || bad "$f.elog -> cpel does not print as cpeldump"
done

# text and JSON through the model, and a model round trip into CPEL
"$TK" print "$D/basic.cpel" | grep -q '^0.000020000 MSG: .*datum = "hello, world"' || bad "text print of basic.cpel"
"$TK" print --format json "$D/vpp-small.elog" | grep -q '"text":"msg: configured 2 interfaces"' || bad "json print of vpp-small.elog"
"$TK" convert --event 'rx-burst:' "$D/vpp-small.elog" -o "$tmp/f.cpel" && [ "$("$TK" print --format cpeldump "$tmp/f.cpel" | wc -l)" = 3 ] \
  || bad "filtered elog -> CPEL through the model"
# print --format cpeldump straight from the elog = c2cpel then cpeldump
for f in vpp-new vpp-small; do
  "$TK" print --format cpeldump "$D/$f.elog" | cmp -s - "$D/expected/$f.cpeldump" || bad "print --format cpeldump $f.elog"
done

# the little-endian form of the c2cpel output prints the same
"$TK" convert --byte-order little "$D/vpp-new.elog" -o "$tmp/le.cpel" && [ "$(head -c1 "$tmp/le.cpel" | od -An -tx1 | tr -d ' ')" = 81 ] \
  && "$TK" print --format cpeldump "$tmp/le.cpel" | cmp -s - "$D/expected/vpp-new.cpeldump" || bad "little-endian elog -> CPEL"

# perf -> CPEL: a track per thread, or per CPU with --cpel-tracks cpu
P=$TK_TESTDATA/perf/pdc/multi-event-single-process.perf.data
if [ -f "$P" ]; then
  "$TK" convert "$P" -o "$tmp/p.cpel" || bad "perf -> CPEL exited $?"
  "$TK" print --format cpeldump "$tmp/p.cpel" >"$tmp/p.txt" || bad "perf -> CPEL does not print"
  [ "$(wc -l <"$tmp/p.txt")" -gt 100 ] && grep -q '^000:00:00:000:000 tid 7960 ' "$tmp/p.txt" || bad "perf -> CPEL tracks per thread"
  "$TK" info "$tmp/p.cpel" | grep -q '^track definitions: 1$' || bad "perf -> CPEL: one thread, one track"
fi
exit $fail
