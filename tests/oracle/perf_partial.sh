#!/usr/bin/env bash
# Partial perf.data files: print what is there, then a clear error.
# - truncated (head -c): tracekit prints every complete record, then an
#   error with exit 1. Oracles: perf script of the same records as a
#   well-formed file (data size set to the last complete record, no features,
#   as the cut file has none): the same text byte for byte (perf script of
#   the cut file itself prints only its flushed rounds, and sometimes a
#   bogus line read past the end); and perf report -D of the whole file: one
#   sample per SAMPLE record that ends inside the cut.
# - unfinished (data size 0 in the header, as perf record leaves it when
#   killed): read to the last complete record, exit 0, ONE warning and no
#   feature-section noise; its perf script text equals perf script of the
#   original file (which perf itself refuses to read with size 0).
# - two records whose type is corrupted to 0xffffffff: perf script fails,
#   so do we (exit 1, after the other records); one warning; stats and
#   print --all both name them UNKNOWN(4294967295), and count 2.
set -u
: "${TK:?}" "${TK_TESTDATA:?}"
command -v perf >/dev/null || { echo "SKIP: perf is not installed"; exit 77; }
export LC_ALL=C
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
fail=0; n=0
bad() { echo "FAIL $*"; fail=1; }

files=("$TK_TESTDATA/perf/perfparser/vector_static_clang__perf.data"
       "$TK_TESTDATA/perf/pdc/multi-event-single-process.perf.data")
head -c 8000000 /dev/urandom > "$work/rnd"
perf record -q -g -F 10000 -o "$work/rec.data" -- gzip -1 -c "$work/rnd" >/dev/null 2>&1 &&
  files+=("$work/rec.data")

# perf report -D of FILE, made once
raw_dump() {
  local d; d="$work/dump.$(echo "$1" | md5sum | cut -c1-12)"
  [ -f "$d" ] || perf report -D -i "$1" > "$d" 2>/dev/null
  cat "$d"
}
# complete SAMPLE records of FILE that end at or before byte CUT (perf report -D)
samples_before() {
  raw_dump "$1" | /usr/bin/python3 -c '
import re, sys
cut = int(sys.argv[1]); n = 0
for line in sys.stdin:
    m = re.match(r"(?:\d+ )?(0x[0-9a-f]+) \[(0x[0-9a-f]+)\]: PERF_RECORD_SAMPLE", line)
    if m and int(m.group(1), 16) + int(m.group(2), 16) <= cut:
        n += 1
print(n)' "$2"
}
# the byte PCT % into FILE's data section (file-mode header, either byte order)
data_cut() {
  /usr/bin/python3 -c '
import struct, sys
b = open(sys.argv[1], "rb").read(64)
e = "<" if b[:8] == b"PERFILE2" else ">"
off, size = struct.unpack_from(e + "QQ", b, 40)
print(off + size * int(sys.argv[2]) // 100)' "$1" "$2"
}
# repaired FULL CUT OUT: FULL's records that end within CUT as a
# well-formed file (data size set, no features) that perf reads cleanly
repaired() { /usr/bin/python3 -c '
import struct, sys
full, cut, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
b = bytearray(open(full, "rb").read())
e = "<" if b[:8] == b"PERFILE2" else ">"
off, size = struct.unpack_from(e + "QQ", b, 40)
end = off
limit = min(cut, off + size) if size else cut  # size 0: a killed recording
while end + 8 <= limit:
    sz = struct.unpack_from(e + "H", b, end + 6)[0]
    if sz < 8 or end + sz > cut:
        break
    end += sz
b = b[:end]
struct.pack_into(e + "Q", b, 48, end - off)
struct.pack_into(e + "4Q", b, 72, 0, 0, 0, 0)
open(out, "wb").write(b)' "$@"; }
# zero the header's data.size (u64 at byte 48, either byte order)
zero_size() { cp "$1" "$2"; chmod u+w "$2"; printf '\0\0\0\0\0\0\0\0' | dd of="$2" bs=1 seek=48 conv=notrunc status=none; }
# an unfinished file has no features: no event names, and no build ids,
# which choose the symbols and decide DWARF unwinding (perf script's frames:
# compared elsewhere)
noname() { sed 's/"event":"[^"]*",//; s/,"symbol":"[^"]*","sym_off":[0-9]*//g; s/,"dso":"[^"]*","dso_off":"[^"]*"//g; s/,"callchain":\[[^]]*\]//'; }

for f in "${files[@]}"; do
  b=$(basename "$f")
  for pct in 35 60 85; do
    cut=$(data_cut "$f" $pct); t="$work/$b.$pct"
    head -c "$cut" "$f" > "$t"
    "$TK" print --format perf-script "$t" > "$t.tk" 2> "$t.err"; rc=$?
    repaired "$f" "$cut" "$t.repaired"
    perf script -i "$t.repaired" > "$t.perf" 2>/dev/null
    [ $rc -eq 1 ] || bad "$b cut $cut: exit $rc, want 1"
    grep -q "truncated" "$t.err" || bad "$b cut $cut: no truncation error: $(head -2 "$t.err")"
    [ -s "$t.perf" ] && cmp -s "$t.tk" "$t.perf" || bad "$b cut $cut: differs from perf script of its complete records"
    want=$(samples_before "$f" "$cut")
    got=$("$TK" print --format json "$t" 2>/dev/null | grep -c '"type":"sample"')
    [ "$got" -eq "$want" ] || bad "$b cut $cut: $got samples printed, perf report -D has $want complete ones"
    [ "$want" -gt 0 ] || bad "$b cut $cut: nothing to compare"
    n=$((n+1))
  done
  # unfinished: whole data, and cut inside a record
  u="$work/$b.unfinished"; zero_size "$f" "$u"
  "$TK" print --format perf-script "$u" > "$u.tk" 2> "$u.err"; rc=$?
  [ $rc -eq 0 ] || bad "$b unfinished: exit $rc: $(head -2 "$u.err")"
  [ "$(wc -l < "$u.err")" -eq 1 ] && grep -q "not finished" "$u.err" ||
    bad "$b unfinished: want one 'not finished' warning, got: $(head -3 "$u.err")"
  # kernel symbols of other machines' recordings are chosen by the build-id
  # feature, which an unfinished file lacks: perf script text only for ours
  if [ "$f" = "$work/rec.data" ]; then
    perf script -i "$f" 2>/dev/null | cmp -s - "$u.tk" || bad "$b unfinished: differs from perf script of the original"
  fi
  "$TK" print --format json "$f" | noname > "$u.want.json"
  "$TK" print --format json "$u" 2>/dev/null | noname | cmp -s - "$u.want.json" ||
    bad "$b unfinished: its events differ from the original's"
  cut=$(data_cut "$f" 60); head -c "$cut" "$u" > "$u.cut"
  "$TK" print --format json "$u.cut" >"$u.cut.json" 2>"$u.cut.err"; rc=$?
  got=$(grep -c '"type":"sample"' "$u.cut.json")
  want=$(samples_before "$f" "$cut")
  [ $rc -eq 0 ] && [ "$got" -eq "$want" ] || bad "$b unfinished cut $cut: exit $rc, $got samples, want $want"
  [ "$(wc -l < "$u.cut.err")" -eq 1 ] || bad "$b unfinished cut: want one warning, got: $(head -3 "$u.cut.err")"
  "$TK" stats "$u" >/dev/null 2>"$u.stats.err" || bad "$b unfinished: stats failed"
  grep -q "feature [0-9]* section\|is malformed" "$u.stats.err" && bad "$b unfinished: feature noise: $(head -2 "$u.stats.err")"
  n=$((n+1))
done
# sample offsets of FILE (perf report -D), one per line
sample_offsets() {
  raw_dump "$1" | /usr/bin/python3 -c '
import re, sys
for line in sys.stdin:
    m = re.match(r"(?:\d+ )?(0x[0-9a-f]+) \[0x[0-9a-f]+\]: PERF_RECORD_SAMPLE", line)
    if m:
        print(int(m.group(1), 16))'
}
for f in "${files[@]}"; do
  b=$(basename "$f"); d="$work/$b.badtype"
  cp "$f" "$d"; chmod u+w "$d"
  # perf report -D lists samples in time order; the damaged records and
  # "the first bad record" are in file order
  mapfile -t offs < <(sample_offsets "$f" | sort -n)
  total=${#offs[@]}
  [ "$total" -gt 10 ] || { bad "$b badtype: only $total samples"; continue; }
  for o in "${offs[2]}" "${offs[9]}"; do
    printf '\377\377\377\377' | dd of="$d" bs=1 seek="$o" conv=notrunc status=none
  done
  perf script -i "$d" >/dev/null 2>&1 && bad "$b badtype: perf script accepts it (no oracle)"
  "$TK" print --format json "$d" >"$d.json" 2>"$d.err"; rc=$?
  got=$(grep -c '"type":"sample"' "$d.json")
  [ $rc -eq 1 ] || bad "$b badtype: exit $rc, want 1 as perf"
  [ "$got" -eq $((total - 2)) ] || bad "$b badtype: $got samples, want $((total - 2))"
  [ "$(grep -c warning "$d.err")" -eq 1 ] || bad "$b badtype: want one warning: $(cat "$d.err")"
  grep -q "offset 0x$(printf %x "${offs[2]}"):" "$d.err" || bad "$b badtype: the error does not name the first bad record: $(tail -1 "$d.err")"
  "$TK" stats "$d" 2>/dev/null | grep -q '^ *UNKNOWN(4294967295) events: *2 ' || bad "$b badtype: stats does not show UNKNOWN(4294967295) 2"
  a=$("$TK" print --all --raw-order "$d" 2>/dev/null | grep -c 'UNKNOWN(4294967295)')
  [ "$a" -eq 2 ] || bad "$b badtype: print --all shows $a UNKNOWN(4294967295), want 2"
  n=$((n+1))
done
# A real `perf record` killed with SIGKILL once its file holds some data
# (waiting on the file's size, not on time): read with one warning, exit 0,
# and the same text as perf script of its complete records made well-formed.
k=$work/killed.data
perf record -q -g -F 5000 -o "$k" -- /usr/bin/python3 -c 'while True: pass' >/dev/null 2>&1 &
rec=$!
for _ in $(seq 1 300); do
  [ "$(stat -c %s "$k" 2>/dev/null || echo 0)" -gt 150000 ] && break
  kill -0 $rec 2>/dev/null || break
  sleep 0.1
done
child=$(pgrep -P $rec 2>/dev/null)
kill -9 $rec 2>/dev/null; wait $rec 2>/dev/null
[ -n "$child" ] && kill $child 2>/dev/null
if [ -s "$k" ] && [ "$(od -An -t u8 -j 48 -N 8 "$k" | tr -d ' ')" = 0 ]; then
  "$TK" print --format perf-script "$k" > "$k.tk" 2> "$k.err"; rc=$?
  [ $rc -eq 0 ] || bad "killed: exit $rc: $(head -2 "$k.err")"
  [ "$(wc -l < "$k.err")" -eq 1 ] && grep -q "not finished" "$k.err" || bad "killed: want one warning: $(head -3 "$k.err")"
  repaired "$k" "$(stat -c %s "$k")" "$k.repaired"
  perf script -i "$k.repaired" > "$k.perf" 2>/dev/null
  [ -s "$k.perf" ] && cmp -s "$k.perf" "$k.tk" || bad "killed: differs from perf script of its complete records"
  n=$((n+1))
else
  echo "note: no killed recording to check (perf record could not run, or finished its header)"
fi
[ $fail -eq 0 ] && echo "partial perf.data: $n files/cuts checked against perf script and perf report -D"
exit $fail
