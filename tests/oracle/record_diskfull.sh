#!/usr/bin/env bash
# tracekit record (issue 14) on a full disk: recording a fixed workload
# with -g at a sample per 100 us of its CPU time (60 rounds: ~9000 samples
# with call chains, over 1 MB) into a 256 kB tmpfs fails with exit 1 naming
# the error, and the data written before the failure is left at the output
# path as an unfinished recording that tracekit reads (its "not finished"
# warning, samples counted). Needs root and mount (a private tmpfs);
# skipped (77) otherwise.
# Not -a: its side-band (every process's maps) is 250-550 kB depending on
# what runs on the machine, so the disk could fill before the first sample
# (the test failed so under load); the workload's side-band is a few kB
# and its samples are bound to overflow the disk whatever the timing.
set -u
. "$(dirname "$0")/record_lib.bash"
mkdir "$work/full"
if ! mount -t tmpfs -o size=256k tmpfs "$work/full" 2>/dev/null; then
  echo "SKIP: cannot mount a small tmpfs here (needs root)"; exit 77
fi
trap 'umount "$work/full" 2>/dev/null; rm -rf "$work"' EXIT
"$TK" record -q -g -e cpu-clock -c 100000 -o "$work/full/f.data" -- "$work/workload" 60 >/dev/null 2>"$work/rec.err"; rc=$?
[ $rc -eq 1 ] || fail "exit $rc on a full disk, want 1: $(head -1 "$work/rec.err")"
grep -q 'No space left on device' "$work/rec.err" || fail "the error does not say the disk is full: $(head -1 "$work/rec.err")"
grep -q 'data written before the failure is in' "$work/rec.err" || fail "no note about the data kept"
if [ -s "$work/full/f.data" ]; then
  "$TK" stats "$work/full/f.data" >"$work/stats" 2>"$work/stats.err" || fail "tracekit stats of the kept file: $(head -1 "$work/stats.err")"
  grep -q 'not finished' "$work/stats.err" || fail "no 'not finished' warning"
  n=$(awk '/SAMPLE events:/ {print $3; exit}' "$work/stats")
  [ "${n:-0}" -gt 0 ] && echo "ok   disk full: exit 1, $n samples readable" || fail "no samples in the kept file"
else
  fail "nothing kept at the output path"
fi
[ $failed -eq 0 ] && echo "record_diskfull: all checks passed"
exit $((failed > 0))
