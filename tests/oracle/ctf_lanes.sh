#!/usr/bin/env bash
# Oracle (issue 19): two lanes print a CTF trace as one lane does. With
# the events cut into chunks formatted on two threads (src/output/
# print_lanes.h; both lanes read and merge every stream), `print --format
# babeltrace` writes the same bytes, the same warnings (discarded events
# and packets, clock and metadata warnings) and the same exit status as
# the one-lane run (TRACEKIT_LANES=1), on every CTF 1 and CTF 2 trace of
# the test data (the failing ones too: an error ends both where it ends
# one), with a time window and an event filter, in chunks of 1 and 8
# events, with lane 1 printing from the start and joining late
# (TRACEKIT_LANE_JOIN). One lane is the reference: ctf_lttng and the
# babeltrace2 conformance tests compare it with babeltrace2. -v says the
# lanes ran, and that by default lane 1 joins on long lines only (two
# made-up traces of 19-25 MB).
set -u
: "${TK:?}" "${TK_TESTDATA:?}"
export TZ=UTC LC_ALL=C
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0 checked=0
fail() { echo "FAIL $*"; failed=$((failed + 1)); }

# same TRACE ARGS...: one lane against two: chunks of 1 and 8 events,
# lane 1 from the start and joining at chunk 2 or 1
same() {
  local trace=$1; shift
  TRACEKIT_LANES=1 "$TK" print --format babeltrace "$@" "$trace" >"$work/one" 2>"$work/one.err"
  local want=$?
  for lanes in 0: 3: 0:2 3:1; do
    local bits=${lanes%%:*} join=${lanes#*:} how
    how="chunks of $((1 << bits))${join:+, joining at chunk $join}"
    TRACEKIT_LANES=2 TRACEKIT_LANE_CHUNK=$bits TRACEKIT_LANE_JOIN=$join \
      "$TK" print --format babeltrace "$@" "$trace" >"$work/two" 2>"$work/two.err"
    local got=$?
    checked=$((checked + 1))
    local name=${trace#"$TK_TESTDATA"/}
    if [ "$got" != "$want" ]; then
      fail "$name $* ($how): exit $got, one lane $want"
    elif ! cmp -s "$work/one" "$work/two"; then
      fail "$name $* ($how): output differs: $(cmp "$work/one" "$work/two" 2>&1 | head -1)"
    elif ! cmp -s "$work/one.err" "$work/two.err"; then
      fail "$name $* ($how): messages differ"
      diff "$work/one.err" "$work/two.err" | head -6
    fi
  done
}

traces=()
while IFS= read -r m; do traces+=("$(dirname "$m")"); done < \
  <(find "$TK_TESTDATA/ctf" "$TK_TESTDATA/ctf2" -name metadata -type f | sort)
[ ${#traces[@]} -ge 100 ] || { echo "FAIL only ${#traces[@]} CTF traces in $TK_TESTDATA"; exit 1; }
# folders of several traces (merged) and traces with no events
for d in ctf/babeltrace/succeed/multi-domains ctf/babeltrace/succeed/session-rotation \
         ctf2/babeltrace-2.1/succeed/multi-domains; do
  [ -d "$TK_TESTDATA/$d" ] && traces+=("$TK_TESTDATA/$d")
done

warned=0 errors=0 events=0
for t in "${traces[@]}"; do
  same "$t"
  [ -s "$work/one.err" ] && warned=$((warned + 1))
  grep -q "offset" "$work/one.err" && errors=$((errors + 1))
  events=$((events + $(wc -l <"$work/one")))
done
# the runs must have covered warnings and errors with an offset
[ "$warned" -ge 10 ] || fail "only $warned traces gave messages"
[ "$errors" -ge 3 ] || fail "only $errors traces failed with an offset"
echo "ok test data: ${#traces[@]} traces, $events lines, $warned with messages, $errors errors"

# a time window and an event filter, on the larger traces
big=()
for t in "${traces[@]}"; do
  [ "$(du -sk "$t" | cut -f1)" -gt 200 ] && big+=("$t")
done
[ ${#big[@]} -ge 2 ] || fail "only ${#big[@]} traces over 200 KB"
for t in "${big[@]}"; do
  same "$t" --time 20%-70%
  same "$t" --event 'sched_*'
done

# a stream damaged late in the trace (64 bytes of 0xff in its last
# file's packet: an event id no class has): the error ends the output of
# one lane and of two at the same event
rot=$TK_TESTDATA/ctf/babeltrace/succeed/lttng-tracefile-rotation/kernel
cp -r "$rot" "$work/rot"
chmod -R u+w "$work/rot"
head -c 64 /dev/zero | tr '\0' '\377' |
  dd of="$work/rot/mychan_0_2" bs=1 seek=12000 conv=notrunc status=none
same "$work/rot"
grep -q "offset 0x" "$work/one.err" || fail "damaged stream: no error with an offset: $(head -1 "$work/one.err")"
cut_bytes=$(stat -c %s "$work/one")
# a reader that leaves early (head -c 1 reads one byte): the write of the
# first full buffer (1 MiB) fails and print stops there, quietly, before
# the damaged stream's error (more than 1 MiB of output in)
if [ "$cut_bytes" -gt $((1536 * 1024)) ]; then
  for lanes in 1 2; do
    TRACEKIT_LANES=$lanes TRACEKIT_LANE_CHUNK=3 "$TK" print --format babeltrace "$work/rot" \
      2>"$work/head.err" | head -c 1 >/dev/null
    got=${PIPESTATUS[0]}
    checked=$((checked + 1))
    if [ "$got" != 0 ] || [ -s "$work/head.err" ]; then
      fail "print | head -c 1 ($lanes lanes): exit $got, want 0 (stopped at the closed pipe): $(head -1 "$work/head.err")"
    fi
  done
else
  fail "the damaged trace prints only $cut_bytes bytes before its error"
fi

# The lanes did run: -v says what they decided (one lane gives the same
# bytes, so the comparisons above would pass with lane 1 never started)
TRACEKIT_LANES=2 "$TK" print -v --format babeltrace "$rot" 2>"$work/v.err" >/dev/null
checked=$((checked + 1))
grep -q "print: two lanes, the second from event 0" "$work/v.err" ||
  fail "TRACEKIT_LANES=2: the lanes did not say two: $(grep 'print:' "$work/v.err" | head -1)"
TRACEKIT_LANES=1 "$TK" print -v --format babeltrace "$rot" 2>"$work/v.err" >/dev/null
checked=$((checked + 1))
if grep -q "print: two lanes" "$work/v.err"; then fail "TRACEKIT_LANES=1: two lanes ran"; fi

# Late lanes by default (src/output/ctf_cli.c probe()): lane 0 prints the
# first 65 536 events alone and lets lane 1 in only when the lines average
# 160 bytes or more, on a trace of 16 MiB or more. Two made-up traces of
# one stream, one string field per event: 170 characters (225-byte
# lines: lane 1 is let in after the probe; whether it catches up before
# lane 0 ends depends on the machine's load, so either message will do)
# and 8 (63-byte lines: one lane).
probe_trace() { # dir events chars
  /usr/bin/python3 - "$@" <<'PY'
import os, struct, sys
d, n, chars = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
os.makedirs(d, exist_ok=True)
open(os.path.join(d, "metadata"), "w").write("""/* CTF 1.8 */
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
trace { major = 1; minor = 8; byte_order = le;
	packet.header := struct { uint32_t magic; uint32_t stream_id; }; };
clock { name = monotonic; freq = 1000000000; };
typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := clk64_t;
stream { id = 0;
	packet.context := struct { clk64_t timestamp_begin; clk64_t timestamp_end;
		uint64_t content_size; uint64_t packet_size; };
	event.header := struct { uint32_t id; clk64_t timestamp; }; };
event { name = "msg"; id = 0; stream_id = 0; fields := struct { string text; }; };
""")
text = (b"abcdefghij" * (chars // 10 + 1))[:chars] + b"\0"
with open(os.path.join(d, "stream_0"), "wb") as f:
    t = 1000
    for first in range(0, n, 1000):
        k = min(1000, n - first)
        times = [t + 100 * i for i in range(k)]
        t += 100 * k
        body = b"".join(struct.pack("<IQ", 0, ts) + text for ts in times)
        size = (40 + len(body)) * 8
        f.write(struct.pack("<IIQQQQ", 0xC1FC1FC1, 0, times[0], times[-1], size, size) + body)
PY
}
for shape in "long 250000 170 two" "short 900000 8 one"; do
  set -- $shape
  if ! probe_trace "$work/probe-$1" "$2" "$3"; then fail "could not write the $1-line trace"; continue; fi
  "$TK" print -v --format babeltrace "$work/probe-$1" >"$work/probe.out" 2>"$work/probe.err"
  TRACEKIT_LANES=1 "$TK" print --format babeltrace "$work/probe-$1" >"$work/probe.one" 2>/dev/null
  checked=$((checked + 1))
  said=$(grep 'print: .* lane' "$work/probe.err" | head -1)
  lines=$(wc -l <"$work/probe.one")
  if [ "$lines" != "$2" ] || ! cmp -s "$work/probe.out" "$work/probe.one"; then
    fail "$1 lines: $lines lines of $2, or the default run differs from one lane"
  elif [ "$4" = two ] && ! [[ "$said" =~ ("two lanes, the second from event "|"let in after event ")([0-9]+) && ${BASH_REMATCH[2]} -ge 65536 ]]; then
    fail "$1 lines ($(( $(stat -c %s "$work/probe.one") / lines )) bytes a line): want lane 1 in after the probe, got: $said"
  elif [ "$4" = one ] && [ "$said" != "tracekit: print: one lane" ]; then
    fail "$1 lines ($(( $(stat -c %s "$work/probe.one") / lines )) bytes a line): want one lane, got: $said"
  else
    echo "ok   $1 lines ($(( $(stat -c %s "$work/probe.one") / lines )) bytes a line, $(du -m "$work/probe-$1/stream_0" | cut -f1) MB): ${said#tracekit: }"
  fi
  rm -rf "$work/probe-$1"
done

echo "$checked comparisons, $failed failed"
[ "$failed" = 0 ]
