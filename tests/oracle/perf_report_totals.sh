#!/usr/bin/env bash
# Oracle: the "Total period" of `tracekit report` equals, per event, the
# "Event count" of `perf report --stdio` (the sum of the sample periods),
# and "Samples" equals perf's sample count. Fixed-period recordings
# (perf record -c N: the samples carry no PERIOD field, each stands for N
# events) are the case that matters; a frequency recording and the
# testdata perf.data files perf reads are checked too. Skipped (77)
# without perf.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}"
if ! command -v perf >/dev/null; then echo "SKIP: perf is not installed"; exit 77; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O1 -g -fno-omit-frame-pointer -o "$work/workload" "$TK_SOURCE_DIR/examples/workload.c" || exit 1
if ! perf record -q -o "$work/probe.data" -- true >/dev/null 2>"$work/probe.err"; then
  echo "SKIP: perf cannot record here: $(head -1 "$work/probe.err")"; exit 77
fi
failed=0; checked=0

# "EVENT<TAB>SAMPLES<TAB>PERIOD" per event from perf report: the exact
# "Event count" header line, and the sample count summed from the rows
# (the "# Samples: 192K" header rounds). Event modifiers (":u", ":HG" that
# perf adds to files without event names) are left out on both sides.
perf_totals() {
  perf report -i "$1" --stdio --no-children --sort sym -g none -F sample,period 2>/dev/null >"$work/perf.txt"
  # event groups: perf prints one column per member (not compared)
  grep -q "of events 'anon group\|of events '{" "$work/perf.txt" && return
  awk '/^# Samples: .* of event / { ev = $0; sub(/^[^'"'"']*'"'"'/, "", ev); sub(/'"'"'.*$/, "", ev) }
       /^# Event count \(approx\.\): / { sub(/:[uHGkhpPS]+$/, "", ev); tot[ev] = $NF; order[++n] = ev }
       /^ +[0-9]+ +[0-9]+ +\[/ && ev != "" { cnt[ev] += $1 }
       END { for (i = 1; i <= n; i++) printf "%s\t%d\t%s\n", order[i], cnt[order[i]], tot[order[i]] }' "$work/perf.txt" |
    LC_ALL=C sort
}

ours() {
  awk 'NR > 2 && /^$/ { exit } NR > 2 { t = $NF; s = $(NF-1); $NF = ""; $(NF-1) = ""; sub(/ +$/, ""); sub(/:[uHGkhpPS]+$/, ""); printf "%s\t%s\t%s\n", $0, s, t }' "$1" |
    LC_ALL=C sort
}

# compare NAME DATA [quiet]: quiet = no SKIP line when perf shows nothing
# (testdata files perf cannot read, or event groups)
compare() {
  local name=$1 data=$2
  perf_totals "$data" >"$work/want"
  if [ ! -s "$work/want" ]; then
    [ -n "${3:-}" ] || echo "SKIP $name: perf report shows no event count"
    return
  fi
  if ! "$TK" report "$data" >"$work/out" 2>"$work/err"; then
    echo "FAIL $name: report failed: $(head -2 "$work/err")"; failed=$((failed+1)); return
  fi
  ours "$work/out" >"$work/got"
  checked=$((checked+1))
  if cmp -s "$work/want" "$work/got"; then
    echo "ok $name: $(tr '\t' ' ' <"$work/got" | paste -sd';')"
  else
    echo "FAIL $name: totals differ (event, samples, period: perf then ours)"
    diff "$work/want" "$work/got" | head -6
    failed=$((failed+1))
  fi
}

record() {
  local name=$1; shift
  if ! perf record -q -o "$work/$name.data" "$@" >/dev/null 2>"$work/$name.rec.err" || [ ! -s "$work/$name.data" ]; then
    echo "SKIP $name: perf record failed"; return
  fi
  compare "$name" "$work/$name.data"
}
record fixed-c10000 -e cpu-clock -c 10000 -- "$work/workload"
record fixed-c12345-g -e cpu-clock:u -c 12345 -g -- "$work/workload"
record freq -e cpu-clock -- "$work/workload"

# testdata: what perf reads, less event groups (one column per member) and
# branch-stack files (perf report then histograms branches), and hardware
# trace files (intel_pt, cs_etm, arm_spe: perf synthesizes samples from the
# AUX data, which tracekit does not decode)
if [ -n "${TK_TESTDATA:-}" ] && [ -d "$TK_TESTDATA/perf" ]; then
  while IFS= read -r f; do
    perf evlist -v -i "$f" >"$work/evlist" 2>/dev/null || continue
    grep -q 'BRANCH_STACK' "$work/evlist" && continue
    grep -Eq '^(intel_pt|cs_etm|arm_spe)' "$work/evlist" && continue
    compare "${f#"$TK_TESTDATA/perf/"}" "$f" quiet
  done < <(find "$TK_TESTDATA/perf" -type f | LC_ALL=C sort)
fi
if [ "$checked" -eq 0 ]; then echo "SKIP: nothing could be checked"; exit 77; fi
echo "$checked files checked, $failed failed"
[ "$failed" -eq 0 ] || exit 1
