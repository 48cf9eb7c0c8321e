#!/usr/bin/env bash
# Where a recorder's cost to the workload could come from, measured per run
# (issue 14's slowdown criterion; bench/record_bench.sh gives the totals):
# examples/workload.c (ROUNDS rounds) alone and under `tracekit record` and
# `perf record`, both -F 10000 -g -a, REPS times in alternating order
# (tracekit first in odd repetitions). Per run:
#  - the workload's scheduler figures from /proc/PID/sched, read before it
#    is reaped: CPU (se.sum_exec_runtime, ms), migrations, voluntary and
#    involuntary context switches (being preempted: by the recorder or by
#    any other job);
#  - the recorder's own (not its children's) CPU, migrations and voluntary
#    switches (= its wake-ups: poll returns, writes that block), whole run;
#  - from the recording itself (perf script): the recorder's samples while
#    the workload ran, split into those on the workload's CPU of the moment
#    (the last CPU a workload sample came from: time taken from it) and on
#    the other CPUs;
#  - interrupts on all CPUs during the run (/proc/interrupts: local timer,
#    IRQ work = ring wake-ups, rescheduling and function-call IPIs).
# Prints the per-run rows, then per recorder the median and range
# (min-max) of each figure.
# Usage: bench/record_sched.sh [ROUNDS] [REPS] (default 100 10).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
TK=${TK:-$here/../build/bin/tracekit}
rounds=${1:-100}
reps=${2:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -g -fno-omit-frame-pointer -o "$work/workload" "$here/../examples/workload.c"
# timer OUT COMMAND...: runs COMMAND, writes "pid wall_s cpu_ms migrations
# voluntary involuntary" of COMMAND's own process (not its children)
cat >"$work/timer.py" <<'PY'
import os, sys, time
out, argv = sys.argv[1], sys.argv[2:]
t0 = time.monotonic()
pid = os.fork()
if pid == 0:
    os.execvp(argv[0], argv)
os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)  # a zombie: /proc/PID/sched still there
wall = time.monotonic() - t0
s = {}
with open(f"/proc/{pid}/sched") as f:
    for line in f:
        k, _, v = line.partition(":")
        s[k.strip()] = v.strip()
_, status, _ = os.wait4(pid, 0)
with open(out, "w") as f:
    f.write(f"{pid} {wall:.4f} {float(s['se.sum_exec_runtime']):.3f} {s['se.nr_migrations']} "
            f"{s['nr_voluntary_switches']} {s['nr_involuntary_switches']}\n")
sys.exit(os.waitstatus_to_exitcode(status))
PY
# samples.py WORKLOAD_PID RECORDER_PID < perf script -F pid,cpu,time:
# "wl_samples rec_on_wl_cpu rec_other_cpu" within the workload's lifetime
cat >"$work/samples.py" <<'PY'
import sys
w, r = int(sys.argv[1]), int(sys.argv[2])
rows = []
for line in sys.stdin:
    f = line.replace("[", " ").replace("]", " ").replace(":", " ").split()
    if len(f) >= 3:
        rows.append((float(f[2]), int(f[0]), int(f[1])))
rows.sort()
wt = [t for t, p, _ in rows if p == w]
n_w = len(wt)
on = other = 0
if wt:
    lo, hi, cur = wt[0], wt[-1], None
    for t, p, c in rows:
        if p == w:
            cur = c
        elif p == r and lo <= t <= hi:
            if c == cur:
                on += 1
            else:
                other += 1
print(n_w, on, other)
PY
irqs() { awk '$1 ~ /^(LOC|IWI|RES|CAL):$/ {s = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i; printf "%s ", s}' /proc/interrupts; }
: >"$work/rows"
one() { # one LABEL RECORDER...
  local label=$1; shift
  local before after
  before=$(irqs)
  /usr/bin/python3 "$work/timer.py" "$work/rec" "$@" -- /usr/bin/python3 "$work/timer.py" \
    "$work/wl" "$work/workload" "$rounds" >/dev/null 2>&1
  after=$(irqs)
  local wpid rpid
  read -r wpid _ <"$work/wl"
  read -r rpid _ <"$work/rec"
  local smp
  smp=$(perf script -i "$work/r.data" -F pid,cpu,time 2>/dev/null | /usr/bin/python3 "$work/samples.py" "$wpid" "$rpid")
  local d
  d=$(paste -d' ' <(echo "$before" | tr ' ' '\n') <(echo "$after" | tr ' ' '\n') | awk 'NF == 2 {printf "%d ", $2 - $1}')
  rm -f "$work/r.data"
  # label | workload: wall cpu_ms migr vol invol | recorder: cpu_ms migr vol invol |
  # samples: wl rec_on_wl_cpu rec_other | irqs: LOC IWI RES CAL
  echo "$label $(cut -d' ' -f2- "$work/wl") $(cut -d' ' -f3- "$work/rec") $smp $d" >>"$work/rows"
  tail -1 "$work/rows"
}
tk() { one tracekit "$TK" record -q -F 10000 -g -a -o "$work/r.data"; }
pf() { one perf perf record -q -F 10000 -g -a -o "$work/r.data"; }
echo "columns: recorder | workload wall_s cpu_ms migrations vol_switches invol_switches |" \
  "recorder cpu_ms migrations vol_switches invol_switches | samples: workload," \
  "recorder on the workload's CPU, recorder elsewhere | interrupts LOC IWI RES CAL"
for i in $(seq 1 "$reps"); do
  /usr/bin/python3 "$work/timer.py" "$work/wl" "$work/workload" "$rounds" >/dev/null
  echo "alone $(cut -d' ' -f2- "$work/wl") - - - - - - - - - - - -" >>"$work/rows"
  tail -1 "$work/rows"
  if [ $((i % 2)) -eq 1 ]; then tk; pf; else pf; tk; fi
done
echo
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $rounds rounds, $reps repetitions; median [min-max]"
echo
/usr/bin/python3 - "$work/rows" <<'PY'
import sys
names = ["workload wall (s)", "workload CPU (ms)", "workload migrations",
         "workload voluntary switches", "workload involuntary switches",
         "recorder CPU, whole run (ms)", "recorder migrations", "recorder wake-ups (voluntary switches)",
         "recorder involuntary switches", "workload samples", "recorder samples on the workload's CPU",
         "recorder samples on the other CPUs", "local timer interrupts (all CPUs)",
         "IRQ work interrupts", "rescheduling IPIs", "function-call IPIs"]
cols = {}
for line in open(sys.argv[1]):
    f = line.split()
    cols.setdefault(f[0], []).append(f[1:])
def stat(who, i):
    v = sorted(float(r[i]) for r in cols.get(who, []) if i < len(r) and r[i] != "-")
    if not v:
        return ""
    n = len(v)
    med = v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
    fmt = (lambda x: f"{x:.3f}") if i == 0 else (lambda x: f"{x:.1f}" if i == 1 else f"{x:.0f}")
    return f"{fmt(med)} [{fmt(v[0])}-{fmt(v[-1])}]"
print("| per run | alone | tracekit record | perf record |")
print("|---|---|---|---|")
for i, name in enumerate(names):
    print(f"| {name} | {stat('alone', i)} | {stat('tracekit', i)} | {stat('perf', i)} |")
PY
