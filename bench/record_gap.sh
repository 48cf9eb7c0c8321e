#!/usr/bin/env bash
# What one sample costs the sampled program under `perf record -F 10000 -g
# -a` and under `tracekit record` with the same options (issue 14's
# slowdown criterion, measured per sample): bench/record_gapmeter.c runs
# DURATION seconds under each recorder, RUNS times each in shuffled order,
# and measures from inside the program the interrupts it takes (gaps of
# 0.5-300 us in a loop of back-to-back TSC reads). Per run: interrupts,
# their median (= the cost of one sample interrupt: at 10 kHz nearly all
# of them are the sampling timer's) and total; per recorder: the median
# and range of the runs' medians, and the total interrupt time per second
# the program ran. Preemption by other jobs (gaps over 300 us) is left out,
# so the figure holds on a loaded machine.
# Usage: bench/record_gap.sh [RUNS] [DURATION] (default 15 0.5).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
TK=${TK:-$here/../build/bin/tracekit}
runs=${1:-15}
dur=${2:-0.5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -fno-omit-frame-pointer -o "$work/gapmeter" "$here/record_gapmeter.c"
: >"$work/rows"
for i in $(seq 1 "$runs"); do
  for who in $(printf '%s\n' alone perf tracekit | shuf); do
    case $who in
      alone) "$work/gapmeter" "$dur" "$work/g" ;;
      perf) perf record -q -F 10000 -g -a -o "$work/p.data" -- "$work/gapmeter" "$dur" "$work/g" >/dev/null 2>&1 ;;
      tracekit) "$TK" record -q -F 10000 -g -a -o "$work/t.data" -- "$work/gapmeter" "$dur" "$work/g" >/dev/null 2>&1 ;;
    esac
    echo "$who $(cat "$work/g")" >>"$work/rows"
  done
done
echo "per run: recorder interrupts median_us p90_us total_s preemptions preempted_s"
sort "$work/rows"
echo
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| -F 10000 -g -a, $runs runs of ${dur}s each | interrupts per s run | median interrupt (median of runs, range) | interrupt time per s run |"
echo "|---|---|---|---|"
for who in alone tracekit perf; do
  meds=$(awk -v w="$who" '$1 == w {print $3}' "$work/rows" | sort -g | tr '\n' ' ')
  awk -v w="$who" -v d="$dur" -v meds="$meds" '$1 == w { n++; irq += $2; tot += $5; pre += $7 }
    END {
      k = split(meds, m, " ")
      mid = (k % 2) ? m[(k + 1) / 2] : (m[k / 2] + m[k / 2 + 1]) / 2
      run = n * d - pre   # seconds the program was on a CPU
      printf "| %s | %.0f | %.1f us (%.1f-%.1f) | %.1f ms |\n", w, irq / run, mid, m[1], m[k], 1000 * tot / run
    }' "$work/rows"
done
