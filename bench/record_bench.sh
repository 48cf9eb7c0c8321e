#!/usr/bin/env bash
# tracekit record vs perf record, same workload, same options (issue 14's
# bench): the workload (examples/workload.c, ROUNDS rounds) alone, under
# `perf record -F 10000 -g -a` and under `tracekit record -F 10000 -g -a`,
# REPS times in alternating order (tracekit first in odd repetitions, perf
# first in even ones) so that a change of the machine's load hits both:
#  - workload wall time (its slowdown against the run alone), median, and
#    the workload's own CPU time (user+sys), median: on a loaded machine the
#    wall time is mostly waiting for a CPU, while the CPU time holds what
#    the recording costs the workload (sample interrupts, call chain walks,
#    caches shared with the recorder);
#  - recorder CPU time = the recorder's user+sys minus the workload's, median
#    (perf's includes its end-of-run pass over the data for build ids);
#  - records lost at -F 50000 (LOST events counted by perf report --stats),
#    largest of the repetitions.
# Usage: bench/record_bench.sh [ROUNDS] [REPS] (default 100 9: a run's cost
# per sample is one of two levels on the VM, see bench/record_gap.sh and
# bench/README.md, so fewer repetitions can compare two levels). Prints the
# per-repetition figures and a markdown table.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
TK=${TK:-$here/../build/bin/tracekit}
rounds=${1:-100}
reps=${2:-9}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -g -fno-omit-frame-pointer -o "$work/workload" "$here/../examples/workload.c"
# A timer with microsecond CPU times (/usr/bin/time prints 10 ms): runs
# COMMAND, writes "wall user sys self_user self_sys" to OUT, where user/sys
# are the command's and its waited-for descendants' (wait4) and self_* the
# timer's own (so the recorder's CPU can be told from everything below it).
cat >"$work/timer.py" <<'PY'
import os, resource, sys, time
out, argv = sys.argv[1], sys.argv[2:]
t0 = time.monotonic()
pid = os.fork()
if pid == 0:
    os.execvp(argv[0], argv)
_, status, ru = os.wait4(pid, 0)
wall = time.monotonic() - t0
me = resource.getrusage(resource.RUSAGE_SELF)
with open(out, "w") as f:
    f.write(f"{wall:.4f} {ru.ru_utime:.4f} {ru.ru_stime:.4f} {me.ru_utime:.4f} {me.ru_stime:.4f}\n")
sys.exit(os.waitstatus_to_exitcode(status))
PY
T() { /usr/bin/python3 "$work/timer.py" "$@"; }
# run LABEL RECORDER-ARGS... : prints "wall_workload cpu_recorder lost cpu_workload"
run() {
  local label=$1; shift
  T "$work/$label.outer" "$@" -- /usr/bin/python3 "$work/timer.py" "$work/$label.inner" \
    "$work/workload" "$rounds" >/dev/null 2>"$work/$label.err"
  read -r wall iu is isu iss <"$work/$label.inner"
  read -r _ ou os _ _ <"$work/$label.outer"
  local lost
  lost=$(perf report --stats -i "$work/$label.data" 2>/dev/null | awk '/LOST events/ {print $3; exit}')
  rm -f "$work/$label.data"
  echo "$wall $(echo "$ou + $os - $iu - $is - $isu - $iss" | bc -l) ${lost:-0} $(echo "$iu + $is" | bc -l)"
}
alone() {
  T "$work/alone" "$work/workload" "$rounds" >/dev/null
  read -r w u s _ _ <"$work/alone"; echo "$w $(echo "$u + $s" | bc -l)"
}
tk10() { run tk10 "$TK" record -q -F 10000 -g -a -o "$work/tk10.data"; }
p10() { run perf10 perf record -q -F 10000 -g -a -o "$work/perf10.data"; }
tk50() { run tk50 "$TK" record -q -F 50000 -g -a -o "$work/tk50.data"; }
p50() { run perf50 perf record -q -F 50000 -g -a -o "$work/perf50.data"; }
: >"$work/rows"
for i in $(seq 1 "$reps"); do
  set -- $(alone); a=$1 acpu=$2
  if [ $((i % 2)) -eq 1 ]; then t=$(tk10); p=$(p10); tl=$(tk50); pl=$(p50)
  else p=$(p10); t=$(tk10); pl=$(p50); tl=$(tk50); fi
  set -- $t; tw=$1 tc=$2 tcpu=$4
  set -- $p; pw=$1 pc=$2 pcpu=$4
  set -- $tl; tlost=$3
  set -- $pl; plost=$3
  echo "$a $tw $pw $tc $pc $tlost $plost $acpu $tcpu $pcpu" >>"$work/rows"
  echo "rep $i: alone ${a}s (CPU ${acpu}s); workload under tracekit ${tw}s (CPU ${tcpu}s), under perf ${pw}s (CPU ${pcpu}s); recorder CPU tracekit ${tc}s, perf ${pc}s; lost at -F 50000: tracekit $tlost, perf $plost"
done
med() { cut -d' ' -f"$1" "$work/rows" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
mx() { cut -d' ' -f"$1" "$work/rows" | sort -g | tail -1; }
alone=$(med 1) tw=$(med 2) pw=$(med 3) tc=$(med 4) pc=$(med 5) tl=$(mx 6) pl=$(mx 7)
acpu=$(med 8) tcpu=$(med 9) pcpu=$(med 10)
echo
echo "workload alone: ${alone}s wall, ${acpu}s CPU, medians ($rounds rounds, $reps repetitions); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| -F 10000 -g -a, median of $reps | tracekit record | perf record |"
echo "|---|---|---|"
echo "| workload wall time | ${tw}s ($(echo "scale=2; $tw / $alone" | bc)x) | ${pw}s ($(echo "scale=2; $pw / $alone" | bc)x) |"
echo "| workload CPU time (alone: ${acpu}s) | ${tcpu}s ($(echo "scale=2; $tcpu / $acpu" | bc)x) | ${pcpu}s ($(echo "scale=2; $pcpu / $acpu" | bc)x) |"
echo "| recorder CPU (user+sys) | ${tc}s | ${pc}s |"
echo "| LOST records at -F 50000 (largest) | $tl | $pl |"
