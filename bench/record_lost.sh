#!/usr/bin/env bash
# Records lost at -F 50000 -g -a: each recorder in turn on the same workload
# (examples/workload.c, ROUNDS rounds), REPS times, LOST counted by
# `perf report --stats`; prints each repetition and the sorted counts with
# their median per recorder. Recorders: tracekit with its default ring,
# tracekit with perf's 512 KiB (-m 128), perf record; TK_OLD=path adds an
# older tracekit build (default ring and -m 256) for before/after runs.
# Loss depends on how soon the recorder gets a CPU: run it on a busy machine
# too. Usage: bench/record_lost.sh [REPS] [ROUNDS]   (default 8 100)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
TK=${TK:-$here/../build/bin/tracekit}
reps=${1:-8}
rounds=${2:-100}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -g -fno-omit-frame-pointer -o "$work/workload" "$here/../examples/workload.c"
names=(tracekit "tracekit -m 128" perf)
cmds=("$TK record -q" "$TK record -q -m 128" "perf record -q")
if [ -n "${TK_OLD:-}" ]; then
  names+=(old "old -m 256")
  cmds+=("$TK_OLD record -q" "$TK_OLD record -q -m 256")
fi
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq 1 "$reps"); do
  line="rep $i:"
  for k in "${!cmds[@]}"; do
    ${cmds[$k]} -F 50000 -g -a -o "$work/l.data" -- "$work/workload" "$rounds" >/dev/null 2>&1
    lost=$(perf report --stats -i "$work/l.data" 2>/dev/null | awk '/LOST events/ {print $3; exit}')
    echo "${lost:-0}" >>"$work/lost.$k"
    line="$line ${names[$k]}=${lost:-0}"
  done
  echo "$line (load $(cut -d' ' -f1 /proc/loadavg))"
done
for k in "${!cmds[@]}"; do
  sort -n "$work/lost.$k" | awk -v n="${names[$k]}" '{v[NR]=$1; s=s" "$1}
    END {m = NR % 2 ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2; printf "%-16s LOST sorted:%s  median %s\n", n, s, m}'
done
