#!/usr/bin/env bash
# Oracle: `info` of a perf.data file shows "captured on" as
# `perf report --header-only` does (the file's modification time, local).
set -u
: "${TK:?}" "${TK_TESTDATA:?}"
command -v perf >/dev/null || { echo "SKIP: perf is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0
for f in pdc/with-callchain.perf.data perfparser/vector_static_gcc__perf.data quipper/perf.data.forkexit-3.8; do
  cp "$TK_TESTDATA/perf/$f" "$work/x.data"
  touch -d "2019-03-0$((n+1)) 0$n:0$n:0$n" "$work/x.data"
  want=$(perf report --header-only -i "$work/x.data" 2>/dev/null | sed -n 's/^# captured on *: //p')
  got=$("$TK" info "$work/x.data" | sed -n 's/^# captured on : //p')
  if [ -z "$want" ] || [ "$want" != "$got" ]; then
    echo "FAIL $f: perf '$want', tracekit '$got'"; exit 1
  fi
  echo "ok   $f: $got"
  n=$((n+1))
done
