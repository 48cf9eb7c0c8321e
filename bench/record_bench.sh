#!/usr/bin/env bash
# tracekit record vs perf record, same workload, same options (issue 14's
# bench): the workload (examples/workload.c, ROUNDS rounds) alone, under
# `perf record -F 10000 -g -a` and under `tracekit record -F 10000 -g -a`,
# REPS times in alternating order (tracekit first in odd repetitions, perf
# first in even ones) so that a change of the machine's load hits both:
#  - workload wall time and the workload's own CPU time (user+sys): on a
#    loaded machine the wall time is mostly waiting for a CPU, while the
#    CPU time holds what the recording costs the workload (sample
#    interrupts, call chain walks, caches shared with the recorder);
#  - recorder CPU time = the recorder's user+sys minus the workload's
#    (perf's includes its end-of-run pass over the data for build ids);
#  - records lost at -F 50000 (LOST events counted by perf report --stats).
# Each figure as median [min-max] over the repetitions, so that a reader
# sees the noise; then the two recorders compared within each repetition
# (tracekit / perf, the number of repetitions where tracekit's workload is
# faster, and a sign test): a run's cost per sample is one of two levels on
# the VM whichever recorder runs (bench/record_gap.sh, bench/README.md), so
# a handful of repetitions can compare two levels, not two recorders.
# PIN=cpu runs the workload (alone and under both recorders) on that CPU
# only: unpinned, each recorder's fork and wake-up place it on the CPU the
# recorder is not on, and perf's lands on CPU 0 where tracekit's lands on
# CPU 1 (bench/README.md, session 27), a difference of placement, not of
# recording.
# Usage: bench/record_bench.sh [ROUNDS] [REPS] (default 100 20; an even
# REPS puts each recorder first equally often). Prints the per-repetition
# figures and markdown tables. bench/record_sched.sh shows where the
# difference could come from (switches, migrations, the recorder's
# wake-ups and its CPU on the workload's CPU).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
TK=${TK:-$here/../build/bin/tracekit}
rounds=${1:-100}
reps=${2:-20}
load0=$(cut -d' ' -f1-3 /proc/loadavg)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -g -fno-omit-frame-pointer -o "$work/workload" "$here/../examples/workload.c"
# A timer with microsecond CPU times (/usr/bin/time prints 10 ms): runs
# COMMAND, writes "wall user sys self_user self_sys" to OUT, where user/sys
# are the command's and its waited-for descendants' (wait4) and self_* the
# timer's own (so the recorder's CPU can be told from everything below it).
cat >"$work/timer.py" <<'PY'
import os, resource, sys, time
pin = None
if sys.argv[1] == "--pin":
    pin, sys.argv = sys.argv[2], sys.argv[:1] + sys.argv[3:]
out, argv = sys.argv[1], sys.argv[2:]
t0 = time.monotonic()
pid = os.fork()
if pid == 0:
    if pin:
        os.sched_setaffinity(0, {int(pin)})
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
  T "$work/$label.outer" "$@" -- /usr/bin/python3 "$work/timer.py" ${PIN:+--pin "$PIN"} "$work/$label.inner" \
    "$work/workload" "$rounds" >/dev/null 2>"$work/$label.err"
  read -r wall iu is isu iss <"$work/$label.inner"
  read -r _ ou os _ _ <"$work/$label.outer"
  local lost
  lost=$(perf report --stats -i "$work/$label.data" 2>/dev/null | awk '/LOST events/ {print $3; exit}')
  rm -f "$work/$label.data"
  echo "$wall $(echo "$ou + $os - $iu - $is - $isu - $iss" | bc -l) ${lost:-0} $(echo "$iu + $is" | bc -l)"
}
alone() {
  T ${PIN:+--pin "$PIN"} "$work/alone" "$work/workload" "$rounds" >/dev/null
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
echo
echo "load average: at the start $load0, at the end $(cut -d' ' -f1-3 /proc/loadavg)"
echo
# The summary: medians with their spread (min-max over the repetitions),
# and the two recorders compared within each repetition (same minute of
# the machine's load): tracekit's workload CPU over perf's, the number of
# repetitions where tracekit's is lower, and the two-sided sign test's p
# (the chance of a split at least that uneven if neither were lower).
# TK=perf compares perf with itself (an A/A run: how far two identical
# recorders land apart on this machine).
/usr/bin/python3 - "$work/rows" "$rounds" "$(basename "$TK")" <<'PY'
import math, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
n, rounds, a = len(rows), sys.argv[2], sys.argv[3]
a = "tracekit" if a == "tracekit" else f"{a} (as A)"
col = lambda i: [r[i] for r in rows]
def med(v):
    v = sorted(v)
    k = len(v)
    return v[k // 2] if k % 2 else (v[k // 2 - 1] + v[k // 2]) / 2
def spread(v, f):
    return f"{f(med(v))} [{f(min(v))}-{f(max(v))}]"
s3 = lambda x: f"{x:.3f}"
alone, acpu = col(0), col(7)
tw, pw, tc, pc, tcpu, pcpu = col(1), col(2), col(3), col(4), col(8), col(9)
def x(v, base):  # slowdown: median over the median alone
    return f"{med(v) / med(base):.2f}x"
def sign_p(k, m):  # two-sided exact sign test, k of m
    lo = min(k, m - k)
    p = 2 * sum(math.comb(m, i) for i in range(lo + 1)) / 2 ** m
    return min(1.0, p)
print(f"workload alone: {spread(alone, s3)} s wall, {spread(acpu, s3)} s CPU ({rounds} rounds, {n} repetitions)")
print()
print(f"| -F 10000 -g -a, median [min-max] of {n} | {a} record | perf record |")
print("|---|---|---|")
print(f"| workload wall time, s | {spread(tw, s3)} | {spread(pw, s3)} |")
print(f"| workload wall, median / alone's | {x(tw, alone)} | {x(pw, alone)} |")
print(f"| workload CPU time, s | {spread(tcpu, s3)} | {spread(pcpu, s3)} |")
print(f"| workload CPU, median / alone's | {x(tcpu, acpu)} | {x(pcpu, acpu)} |")
print(f"| recorder CPU (user+sys), s | {spread(tc, s3)} | {spread(pc, s3)} |")
print(f"| LOST records at -F 50000 (largest; median) | {max(col(5)):.0f}; {med(col(5)):.0f} | {max(col(6)):.0f}; {med(col(6)):.0f} |")
print()
for name, t, p in (("CPU", tcpu, pcpu), ("wall", tw, pw)):
    r = [a / b for a, b in zip(t, p)]
    k = sum(a < b for a, b in zip(t, p))
    ties = sum(a == b for a, b in zip(t, p))
    q = sorted(r)
    print(f"workload {name}, {a.split()[0]} / perf in the same repetition: median {med(r):.3f}, "
          f"range {q[0]:.3f}-{q[-1]:.3f}; {a.split()[0]} lower in {k} of {n - ties} "
          f"(sign test p = {sign_p(k, n - ties):.2f})")
PY
