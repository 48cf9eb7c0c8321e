#!/usr/bin/env bash
# Runs every benchmark in bench/ with its default size, one after the
# other (each compares tracekit with the reference tool in the same run).
# The figures recorded in bench/README.md come from these scripts.
set -u
cd "$(dirname "$0")/.."
export TK=${TK:-build/bin/tracekit}
status=0
for b in perf_bench.sh perfscript_bench.sh perfctf_bench.sh ctf_bench.sh cpel_bench.sh record_bench.sh unwind_bench.sh; do
  echo "=== bench/$b"
  bench/$b || { echo "bench/$b failed"; status=1; }
done
exit $status
