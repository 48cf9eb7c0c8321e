#!/usr/bin/env bash
# Oracle (issue 19): two lanes print what one lane prints. With the sample
# output split into chunks formatted on two threads (src/output/
# print_lanes.h), `print` in the perf-script, json and text styles writes
# the same bytes, the same warnings and the same exit status as the
# one-lane run (TRACEKIT_LANES=1), on every perf.data file of the test
# data (pipe-mode files, tracepoints, counter reads, branch stacks, a
# corrupt sample), with side-band output and filters, on cut files (an
# error ends both where it ends one), and on recordings made here (-g -a;
# a :S group's counter reads), cut into chunks of 1 and 8 samples, with
# lane 1 printing from the start and joining late (TRACEKIT_LANE_JOIN:
# lane 0 alone up to chunk k; on a cold cache lane 1 then borrows lane 0's
# kernel table). One lane is the reference: the perf-script oracles
# compare it with perf script.
set -u
: "${TK:?}" "${TK_TESTDATA:?}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME=$work/xdg HOME=$work/home
mkdir -p "$HOME"
failed=0 checked=0
fail() { echo "FAIL $*"; failed=$((failed + 1)); }

# cold=1: the symbol cache emptied before every run
cold=0
run() {
  [ "$cold" = 1 ] && rm -rf "$XDG_CACHE_HOME"
  "$@"
}

# same FILE ARGS...: one lane against two: chunks of 1 and 8 samples,
# lane 1 from the start and joining at chunk 2 or 1
same() {
  local file=$1; shift
  TRACEKIT_LANES=1 run "$TK" print "$@" "$file" >"$work/one" 2>"$work/one.err"
  local want=$?
  for lanes in 0: 3: 0:2 3:1; do
    local bits=${lanes%%:*} join=${lanes#*:} how
    how="chunks of $((1 << bits))${join:+, joining at chunk $join}"
    TRACEKIT_LANES=2 TRACEKIT_LANE_CHUNK=$bits TRACEKIT_LANE_JOIN=$join \
      run "$TK" print "$@" "$file" >"$work/two" 2>"$work/two.err"
    local got=$?
    checked=$((checked + 1))
    if [ "$got" != "$want" ]; then
      fail "$(basename "$file") $* ($how): exit $got, one lane $want"
    elif ! cmp -s "$work/one" "$work/two"; then
      fail "$(basename "$file") $* ($how): output differs: $(cmp "$work/one" "$work/two" 2>&1 | head -1)"
    elif ! cmp -s "$work/one.err" "$work/two.err"; then
      fail "$(basename "$file") $* ($how): warnings differ"
      diff "$work/one.err" "$work/two.err" | head -6
    fi
  done
}

is_perf() { [ "$(head -c 8 "$1" | tr -d '\0')" = PERFILE2 ]; }

files=()
while IFS= read -r f; do is_perf "$f" && files+=("$f"); done < <(find "$TK_TESTDATA" -type f -size +1k | sort)
[ ${#files[@]} -ge 20 ] || { echo "FAIL only ${#files[@]} perf.data files in $TK_TESTDATA"; exit 1; }

for f in "${files[@]}"; do
  same "$f" --format perf-script
  same "$f" --format json
  same "$f" --format text --all
done
# side-band output and filters, on the larger files
for f in "${files[@]}"; do
  [ "$(stat -c %s "$f")" -gt 300000 ] || continue
  same "$f" --format perf-script --show-task-events --show-mmap-events --show-lost-events
  same "$f" --format json --all --time 20%-70%
done
echo "ok test data: ${#files[@]} files"

# cut files: the error (and its offset) and the output before it
big=$(ls -S "${files[@]}" | head -1)
size=$(stat -c %s "$big")
for frac in 31 58 83; do
  head -c $((size * frac / 100)) "$big" >"$work/cut.data"
  same "$work/cut.data" --format perf-script
  same "$work/cut.data" --format json
  grep -q "offset" "$work/one.err" || fail "cut at $frac%: no error with an offset: $(head -1 "$work/one.err")"
done
# a reader that leaves early (head -c 1 reads one byte): the write after
# the pipe's 64 KiB fails and print stops there, quietly, long before the
# cut at half the file (megabytes of output in), which would be an error
head -c $((size / 2)) "$big" >"$work/cut.data"
for lanes in 1 2; do
  TRACEKIT_LANES=$lanes "$TK" print --format perf-script "$work/cut.data" 2>"$work/head.err" |
    head -c 1 >/dev/null
  got=${PIPESTATUS[0]}
  checked=$((checked + 1))
  if [ "$got" != 0 ] || [ -s "$work/head.err" ]; then
    fail "print | head -c 1 ($lanes lanes): exit $got, want 0 (stopped at the closed pipe): $(head -1 "$work/head.err")"
  fi
done
# a sample whose body is cut short inside the file: only its chunk's lane
# parses it, and the output must still end there
cp "$big" "$work/bad.data"
if python3 - "$work/bad.data" <<'EOF'
import struct, sys
path = sys.argv[1]
b = bytearray(open(path, 'rb').read())
# perf.data header: data section at offset 40 (offset, size)
off, size = struct.unpack_from('<QQ', b, 40)
pos, n = off, 0
while pos + 8 <= off + size:
    typ, misc, sz = struct.unpack_from('<IHH', b, pos)
    if sz < 8:
        break
    if typ == 9:  # PERF_RECORD_SAMPLE
        n += 1
        if n == 700:
            # the sample's callchain count made too large for its record
            struct.pack_into('<H', b, pos + 6, 16)
            break
    pos += sz
open(path, 'wb').write(bytes(b))
sys.exit(0 if n == 700 else 1)
EOF
then
  for fmt in perf-script json; do same "$work/bad.data" --format $fmt; done
  TRACEKIT_LANES=1 "$TK" print --format perf-script "$work/bad.data" >/dev/null 2>&1
  [ $? = 1 ] || echo "note: the damaged sample was not an error for one lane"
else
  fail "could not damage the 700th sample of $(basename "$big")"
fi

# a recording made here: many chunks of kernel and user frames
if command -v perf >/dev/null && cc -O1 -g -fno-omit-frame-pointer -o "$work/workload" \
    "${TK_SOURCE_DIR:?}/examples/workload.c" 2>/dev/null &&
  perf record -q -F 10000 -g -a -o "$work/rec.data" -- sh -c "'$work/workload' 2 >/dev/null" \
    >/dev/null 2>&1 && [ -s "$work/rec.data" ]; then
  # cold: lane 0 loads the kernel's table in the background, lane 1
  # joins late with it (lent)
  for cold in 1 0; do
    same "$work/rec.data" --format perf-script
    same "$work/rec.data" --format json
  done
  echo "ok recording: $(stat -c %s "$work/rec.data") bytes"
  # counter reads of a :S group: a sample's period is the growth since
  # the id's previous sample, which may be in the other lane's chunk
  if perf record -q -e '{cpu-clock,task-clock}:S' -o "$work/read.data" -- "$work/workload" 1 \
      >/dev/null 2>&1 && [ -s "$work/read.data" ]; then
    same "$work/read.data" --format perf-script
    same "$work/read.data" --format json
    echo "ok group read: $(stat -c %s "$work/read.data") bytes"
  else
    fail "perf record of a :S group failed"
  fi
else
  echo "note: perf cannot record here; the recording part is skipped"
fi

# The lanes did run: -v says what they decided (one lane gives the same
# bytes, so the comparisons above would pass with lane 1 never started)
for fmt in perf-script json; do
  TRACEKIT_LANES=2 "$TK" print -v --format $fmt "${files[0]}" 2>"$work/v.err" >/dev/null
  checked=$((checked + 1))
  grep -q "print: two lanes, the second from event 0" "$work/v.err" ||
    fail "TRACEKIT_LANES=2 --format $fmt: the lanes did not say two: $(grep 'print:' "$work/v.err" | head -1)"
  TRACEKIT_LANES=1 "$TK" print -v --format $fmt "${files[0]}" 2>"$work/v.err" >/dev/null
  checked=$((checked + 1))
  if grep -q "print: two lanes" "$work/v.err"; then fail "TRACEKIT_LANES=1 --format $fmt: two lanes ran"; fi
done

echo "$checked comparisons, $failed failed"
[ "$failed" = 0 ]
