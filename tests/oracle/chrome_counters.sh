#!/usr/bin/env bash
# Perf sample periods as Chrome counters: `convert -o x.json` writes one
# "C" event "<event> period" per sample, args.period = the sample's period,
# at its time, on its process; the oracle is `tracekit print --format json`
# (its "period" member) on the same files: same events, same values, in
# the same order. Files with two events and with varying periods.
set -u
: "${TK:?}" "${TK_TESTDATA:?}"
command -v jq >/dev/null || { echo "SKIP: jq is not installed"; exit 77; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail=0
for f in perf/perfparser/vector_static_gcc__perf.data perf/simpleperf/perf_with_two_event_types.data \
         perf/lpd/sleep.data perf/pdc/multi-event-single-process.perf.data; do
  in=$TK_TESTDATA/$f
  [ -f "$in" ] || { echo "SKIP: $f is missing"; exit 77; }
  "$TK" print --format json "$in" |
    jq -r 'select(.type == "sample" and .period != null) | "\(.event) period \(.time) \(.pid) \(.period)"' >"$work/want"
  "$TK" convert "$in" -o "$work/c.json" || { echo "FAIL: $f: convert failed"; fail=1; continue; }
  jq -r '.traceEvents[] | select(.ph == "C" and (.name | endswith(" period")))
         | "\(.name) \(.ts * 1000 | round) \(.pid) \(.args.period)"' "$work/c.json" >"$work/got"
  n=$(wc -l <"$work/want")
  if [ "$n" -gt 0 ] && cmp -s "$work/want" "$work/got"; then
    echo "ok: $f: $n period counters = print --format json ($(cut -d' ' -f5 "$work/want" | sort -u | wc -l) distinct values)"
  else
    echo "FAIL: $f: period counters differ from print --format json ($n wanted)"
    diff "$work/want" "$work/got" | head -5; fail=1
  fi
done
exit $fail
