#!/usr/bin/env bash
# Oracle: the time and id forms perf and babeltrace users type select what
# those tools select.
# - perf script --time START,END / P%/N / P%-Q%, --cpu 0-1 and --pid/--tid
#   lists, on a recording made with --timestamp-boundary (perf needs the
#   first/last sample times for percentages): `print --format perf-script`
#   with the same option prints the same lines;
# - babeltrace2 --begin/--end with HH:MM:SS.ns and "YYYY-MM-DD HH:MM:SS.ns"
#   on an LTTng trace: `print --format babeltrace` prints the same lines.
# The times are taken from the traces themselves, so every range selects
# something (checked: an empty selection fails the test, not passes it).
set -u
: "${TK:?}" "${TK_TESTDATA:?}"
for t in perf babeltrace2; do
  command -v "$t" >/dev/null || { echo "SKIP: $t is not installed"; exit 77; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0 checked=0

# The recording is system-wide: on a busy machine it holds samples of
# other programs (other tests' binaries in their temporary directories),
# and one deleted between perf's read and tracekit's is symbolized by one
# and not the other. gone_masked FILE: the lines with the symbol of every
# image that no longer exists replaced by "?" (the selection, what this
# test checks, is still every line).
gone_masked() {
  local gone
  gone=$(grep -o '(/[^()]*)$' "$1" | sort -u | tr -d '()' | while read -r f; do [ -e "$f" ] || echo "$f"; done)
  awk -v gone="$gone" 'BEGIN {n = split(gone, g, "\n"); for (i = 1; i <= n; i++) if (g[i] != "") G["(" g[i] ")"] = 1}
    { if (match($0, /\(\/[^()]*\)$/) && (substr($0, RSTART) in G)) {
        s = substr($0, 1, RSTART - 1); sub(/ [^ ]+ $/, " ? ", s); $0 = s substr($0, RSTART) }
      print }' "$1"
}

# same WHAT WANT GOT: both non-empty and identical (but for the symbols of
# images deleted meanwhile)
same() {
  checked=$((checked+1))
  if [ ! -s "$2" ]; then echo "FAIL $1: the reference selected nothing"; failed=$((failed+1)); return; fi
  if cmp -s "$2" "$3"; then echo "ok   $1 ($(wc -l <"$2") lines)"
  elif [ "$(gone_masked "$2")" = "$(gone_masked "$3")" ]; then
    echo "ok   $1 ($(wc -l <"$2") lines; symbols of images deleted during the test left out)"
  else
    echo "FAIL $1"; diff "$2" "$3" | head -5; failed=$((failed+1)); fi
}

data=$work/rec.data
if perf record -q -a -e cpu-clock -c 200000 --timestamp-boundary -o "$data" -- \
     sh -c 'for i in 1 2 3; do ls -R /usr/lib >/dev/null 2>&1; done' >/dev/null 2>"$work/rec.err" &&
   [ -s "$data" ]; then
  perf script -i "$data" -F time 2>/dev/null | tr -d ' :' >"$work/times"
  n=$(wc -l <"$work/times")
  a=$(sed -n "$((n/4+1))p" "$work/times") b=$(sed -n "$((n/2+1))p" "$work/times")
  pids=$(perf script -i "$data" -F pid 2>/dev/null | sort | uniq -c | sort -rn | awk 'NR<=2{printf "%s%s", s, $2; s=","}')
  tids=$(perf script -i "$data" -F tid 2>/dev/null | sort | uniq -c | sort -rn | awk 'NR>=2&&NR<=3{printf "%s%s", s, $2; s=","}')
  for opt in "--time $a,$b" "--time $a," "--time ,$b" "--time 10%/2" "--time 0%-25%" \
             "--time 50%-100%" "--cpu 0-1" "--cpu 1" "--pid $pids" "--tid $tids"; do
    perf script -i "$data" $opt >"$work/want" 2>/dev/null
    "$TK" print --format perf-script $opt "$data" >"$work/got" 2>"$work/err" ||
      { echo "FAIL $opt: tracekit failed: $(head -1 "$work/err")"; failed=$((failed+1)); continue; }
    same "perf $opt" "$work/want" "$work/got"
  done
  # report (profiles) takes the same filters: its sample count is perf's
  for opt in "--time $a,$b" "--time 10%/2" "--cpu 1" "--pid $pids"; do
    want=$(perf script -i "$data" $opt 2>/dev/null | wc -l)
    got=$("$TK" report $opt "$data" 2>/dev/null | awk '$1 == "cpu-clock" {print $2; exit}')
    checked=$((checked+1))
    if [ "$want" -gt 0 ] && [ "$want" = "$got" ]; then echo "ok   report $opt: $got samples"; else
      echo "FAIL report $opt: perf script $want samples, report '$got'"; failed=$((failed+1)); fi
  done
else
  echo "SKIP perf part: perf record failed: $(head -1 "$work/rec.err")"
fi

trace=$TK_TESTDATA/ctf/babeltrace/succeed/wk-heartbeat-u
if [ -d "$trace" ]; then
  # times of day and dates of the 5th and 15th events, as babeltrace prints them
  mapfile -t t < <(TZ=UTC babeltrace2 --clock-date "$trace" 2>/dev/null | sed -n '5p;15p' | sed 's/^\[\([^]]*\)\].*/\1/')
  d1=${t[0]} d2=${t[1]}
  for opt in "--begin=${d1#* }" "--end=${d2#* }" "--begin=${d1#* }|--end=${d2#* }" \
             "--begin=$d1|--end=$d2" "--clock-gmt|--begin=${d1#* }"; do
    IFS='|' read -r -a args <<<"$opt"
    TZ=UTC babeltrace2 "${args[@]}" "$trace" >"$work/want" 2>/dev/null
    TZ=UTC "$TK" print --format babeltrace "${args[@]}" "$trace" >"$work/got" 2>"$work/err" ||
      { echo "FAIL $opt: tracekit failed: $(head -1 "$work/err")"; failed=$((failed+1)); continue; }
    same "babeltrace $opt" "$work/want" "$work/got"
  done
fi
echo "$checked checks, $failed failed"
[ "$checked" -gt 0 ] && [ "$failed" -eq 0 ]
