#!/usr/bin/env bash
# Oracle: `tracekit convert X.data -o Y.data --pid P` (and --cpu C) keeps the
# matching samples natively, so `perf script` of the copy equals
# `perf script --pid P` (--cpu C) of the original. Skipped where perf cannot record.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}"
command -v perf >/dev/null || { echo "SKIP: perf is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O1 -g -o "$work/workload" "$TK_SOURCE_DIR/examples/workload.c" || exit 1
if ! perf record -q -a -F 2000 -o "$work/in.data" -- "$work/workload" 2 >/dev/null 2>"$work/rec.err"; then
  echo "SKIP: perf cannot record here: $(head -1 "$work/rec.err")"; exit 77
fi
pid=$(perf script -i "$work/in.data" -F pid 2>/dev/null | sort | uniq -c | sort -rn | awk 'NR==1 {print $2}')
cpu=$(perf script -i "$work/in.data" -F cpu 2>/dev/null | tr -d '[] ' | sort | uniq -c | sort -rn | awk 'NR==1 {print $2+0}')
fail=0
check() { # NAME TRACEKIT-FILTER PERF-FILTER
  "$TK" convert "$work/in.data" -o "$work/$1.data" $2 || { echo "FAIL $1: convert failed"; fail=1; return; }
  local n; n=$(perf script -i "$work/$1.data" 2>/dev/null | wc -l)
  if [ "$n" -eq 0 ]; then
    echo "FAIL $1: the filtered copy has no samples (nothing compared)"; fail=1
  elif cmp -s <(perf script -i "$work/$1.data" 2>/dev/null) <(perf script -i "$work/in.data" $3 2>/dev/null); then
    echo "ok   $1: $n lines identical"
  else
    echo "FAIL $1: perf script of the filtered copy differs from perf script $3"; fail=1
  fi
}
check pid "--pid $pid" "--pid $pid"
check cpu "--cpu $cpu" "--cpu $cpu"
# A copy without filters is lossless.
check all "" ""
exit $fail
