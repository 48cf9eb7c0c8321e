#!/usr/bin/env bash
# `tracekit report --state/--latency ... --top N` shows the N tracks with the
# largest totals (ties in first-seen order), then "all" unchanged: checked
# against the full report (every track, first-seen order) sorted here by
# its total column, and with --sort total, which must give the same rows.
# Inputs with many tracks: a system-wide perf.data (a track per thread),
# a VPP CPEL trace (a track per worker), an LTTng kernel trace (a track
# per CPU).
set -u
: "${TK:?}" "${TK_TESTDATA:?}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0; checked=0

# check N FILE REPORT-OPTIONS...
check() {
  local n=$1 file=$2; shift 2
  local name="$* --top $n $(basename "$file")"
  if ! "$TK" report "$@" "$file" >"$work/full" 2>"$work/err"; then
    echo "FAIL $name: full report failed: $(head -1 "$work/err")"; failed=$((failed+1)); return
  fi
  local tracks
  tracks=$(awk 'NR > 2 && $1 != "all"' "$work/full" | wc -l)
  if [ "$tracks" -le "$n" ]; then
    echo "FAIL $name: only $tracks tracks, the check needs more than $n"; failed=$((failed+1)); return
  fi
  # header, the N largest totals (stable sort keeps first-seen order in
  # ties), the "all" line; the total is column 7 of the state and latency
  # tables, counted from the end as track names hold spaces
  local from_end=1
  case " $* " in *" --latency "*) from_end=4 ;; esac
  {
    head -2 "$work/full"
    awk -v k="$from_end" 'NR > 2 && $1 != "all" { printf "%s\t%s\n", $(NF - k + 1), $0 }' "$work/full" |
      sort -t "$(printf '\t')" -k1,1nr -s | head -n "$n" | cut -f2-
    grep '^all ' "$work/full"
  } >"$work/want"
  "$TK" report "$@" --top "$n" "$file" >"$work/got" 2>&1
  "$TK" report "$@" --sort total --top "$n" "$file" >"$work/got-sorted" 2>&1
  checked=$((checked+1))
  if ! cmp -s "$work/want" "$work/got"; then
    echo "FAIL $name: not the $n largest totals (want, got):"; diff "$work/want" "$work/got" | head -8
    failed=$((failed+1))
  elif ! cmp -s "$work/got" "$work/got-sorted"; then
    echo "FAIL $name: differs from --sort total"; diff "$work/got" "$work/got-sorted" | head -6
    failed=$((failed+1))
  else
    echo "ok $name: $n of $tracks tracks"
  fi
}

check 5 "$TK_TESTDATA/perf/quipper/perf.data.systemwide.5-3.8" --state cycles
check 1 "$TK_TESTDATA/cpel/vpp-new.cpel" --state 0
rot="$TK_TESTDATA/ctf/babeltrace/succeed/lttng-tracefile-rotation/kernel"
check 3 "$rot" --state sched_switch
check 2 "$rot" --latency sched_wakeup,sched_switch
[ "$checked" -gt 0 ] || { echo "SKIP: nothing checked"; exit 77; }
[ "$failed" -eq 0 ] || exit 1
