#!/usr/bin/env bash
# tracekit record -k (issue 14: the clock data perf writes). With
# `-k monotonic` the samples carry CLOCK_MONOTONIC times and the header has
# HEADER_CLOCKID and HEADER_CLOCK_DATA (the time of day and the clock read
# together at the start), as `perf record -k monotonic` writes them:
# - perf report --header-only shows the same clockid lines as for perf's
#   own -k recording, and a reference time;
# - perf script -F tod (time of day from the clock data) puts every
#   sample between the wall-clock times taken just before and just after
#   the recording;
# - perf script --ns and tracekit print (CTF converted with --tod, read by
#   babeltrace2 in UTC) agree on every sample's time and time of day;
# - perf script == tracekit print --format perf-script.
# TIME_CONV is written, as by perf, only where the kernel offers
# cap_user_time_zero in the ring's page: then perf script must read it.
set -u
. "$(dirname "$0")/record_lib.bash"
data="$work/k.data"
before=$(date +%s%N)
"$TK" record -q -k monotonic -e cpu-clock -c 100000 -o "$data" -- "$work/workload" 2 >/dev/null 2>"$work/rec.err" ||
  { fail "tracekit record -k: $(cat "$work/rec.err")"; exit 1; }
after=$(date +%s%N)
perf record -q -k monotonic -e cpu-clock -c 100000 -o "$work/perf.data" -- true >/dev/null 2>&1 ||
  { echo "SKIP: perf record -k monotonic failed"; exit 77; }
hdr() { perf report --header-only -i "$1" 2>/dev/null | grep -E '^# (clockid|reference time)' | sed -E 's/(reference time:).*/\1/'; }
if [ "$(hdr "$data")" = "$(hdr "$work/perf.data")" ] && [ -n "$(hdr "$data")" ]; then echo "ok   header: $(hdr "$data" | tr '\n' ' ')"
else fail "clock header lines differ: tracekit [$(hdr "$data" | tr '\n' '|')] perf [$(hdr "$work/perf.data" | tr '\n' '|')]"; fi
perf script -F tod,time --ns -i "$data" >"$work/tod" 2>"$work/tod.err" || fail "perf script -F tod: $(head -1 "$work/tod.err")"
n=$(wc -l <"$work/tod")
[ "$n" -ge 20 ] || fail "only $n samples"
bad=0
while read -r day clock _; do
  t=$(date -u -d "$day $clock" +%s%N)
  [ "$t" -ge "$before" ] && [ "$t" -le "$after" ] || bad=$((bad + 1))
done < <(sed -n '1p;$p' "$work/tod" | sed 's/:$//')
[ $bad -eq 0 ] && echo "ok   first and last sample's time of day inside the recording's wall-clock window" ||
  fail "perf script -F tod puts samples outside [$before, $after]: $(sed -n '1p;$p' "$work/tod" | tr '\n' ' ')"
# perf's time of day vs tracekit's (convert --tod, babeltrace2 in UTC)
"$TK" convert --tod "$data" --to ctf -o "$work/k.ctf" 2>"$work/conv.err" || fail "convert --tod: $(head -1 "$work/conv.err")"
TZ=UTC babeltrace2 "$work/k.ctf" 2>/dev/null | sed -E 's/^\[([0-9:.]+)\].*/\1/' >"$work/tk.tod"
awk '{print $2}' "$work/tod" >"$work/perf.tod"
if cmp -s "$work/tk.tod" "$work/perf.tod"; then echo "ok   times of day: perf script -F tod == tracekit convert --tod ($n samples)"
else fail "times of day differ:"; diff "$work/perf.tod" "$work/tk.tod" | head -4; fi
# the clock's own times: perf script --ns == tracekit print's
perf script -F time --ns -i "$data" 2>/dev/null | sed 's/: *$//; s/^ *//' >"$work/perf.ns"
"$TK" print "$data" 2>/dev/null | awk '{print $4}' | sed 's/:$//' >"$work/tk.ns"
cmp -s "$work/perf.ns" "$work/tk.ns" && echo "ok   sample times (ns) agree" || { fail "sample times differ:"; diff "$work/perf.ns" "$work/tk.ns" | head -4; }
perf script -i "$data" >"$work/want" 2>/dev/null; "$TK" print --format perf-script "$data" >"$work/got" 2>/dev/null
cmp -s "$work/want" "$work/got" && echo "ok   perf script == tracekit print --format perf-script" || { fail "perf script differs:"; diff "$work/want" "$work/got" | head -4; }
# TIME_CONV where the kernel offers it
if perf report -D -i "$work/perf.data" 2>/dev/null | grep -q 'PERF_RECORD_TIME_CONV'; then
  "$TK" record -q -o "$work/tc.data" -- true >/dev/null 2>&1
  perf report -D -i "$work/tc.data" 2>/dev/null | grep -q 'PERF_RECORD_TIME_CONV' && echo "ok   TIME_CONV written, as perf's" || fail "perf writes TIME_CONV here, tracekit does not"
else
  echo "note perf writes no TIME_CONV on this machine (no cap_user_time_zero)"
fi
"$TK" record -k nosuchclock -- true >/dev/null 2>&1; [ $? -eq 2 ] || fail "-k nosuchclock: want exit 2"
[ $failed -eq 0 ] && echo "record_clock: all checks passed"
exit $((failed > 0))
