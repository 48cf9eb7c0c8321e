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
# babeltrace2 conformance tests compare it with babeltrace2.
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

echo "$checked comparisons, $failed failed"
[ "$failed" = 0 ]
