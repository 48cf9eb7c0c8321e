#!/usr/bin/env bash
# Oracle: `tracekit print --format perf-script F` is byte-identical to
# `perf script -i F` (stdout) for every perf.data file under
# $TK_TESTDATA/perf that perf itself reads, recordings from other machines
# included (kernel symbols from this machine's kallsyms relocated as perf
# does, [vdso] from our own vdso, one DWARF-unwound user frame...).
# Files perf cannot read (136-byte attrs, COMPRESSED2, simpleperf records)
# must still be read to the end by us: exit 0, or 1 with an error for the
# two known-bad files. A file we are known to print differently is listed
# below with the reason; the test fails when one of them starts to match
# (so the list stays short) or when any other file differs.
set -u
: "${TK:?}" "${TK_TESTDATA:?}"
if ! command -v perf >/dev/null; then echo "SKIP: perf is not installed"; exit 77; fi
if [ ! -d "$TK_TESTDATA/perf" ]; then echo "SKIP: no $TK_TESTDATA/perf"; exit 77; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# must end in a clear error (testdata/README.md)
bad_files=" quipper/perf.data.piped.corrupted.zero_size_sample-3.2 simpleperf/invalid_perf.data "
# NAME reason
known_diff() {
  case $1 in
  quipper/perf.data.intel_pt-4.14) echo "perf decodes the Intel PT AUX trace into synthesized branch samples; we print the recorded samples only" ;;
  perfparser/vector_static_gcc__perf.lbr.data) echo "LBR call stacks: perf 6.1 reads entries[0].to past the end of samples whose stack is empty (nr 0) and prints the next record's bytes" ;;
  quipper/perf.data.weight_struct) echo "PERF_TYPE_RAW default fields addr/data_src/weight/ins_lat (mem-events decoding) are not printed" ;;
  *) return 1 ;;
  esac
}

failed=0 same=0 unread=0 known=0
cd "$TK_TESTDATA/perf" || exit 1
while IFS= read -r f; do
  f=${f#./}
  n=$(echo "$f" | tr / _)
  timeout 300 perf script -i "$f" >"$work/$n.want" 2>"$work/$n.perr"
  prc=$?
  timeout 300 "$TK" print --format perf-script "$f" >"$work/$n.got" 2>"$work/$n.err"
  trc=$?
  if [ $trc -ge 124 ]; then
    echo "FAIL $f: tracekit crashed or hung (exit $trc): $(head -2 "$work/$n.err")"; failed=$((failed+1)); continue
  fi
  case $bad_files in
  *" $f "*)
    if [ $trc -ne 1 ] || [ ! -s "$work/$n.err" ]; then
      echo "FAIL $f: a known-bad file must end in exit 1 with an error (got $trc)"; failed=$((failed+1))
    else
      echo "ok $f: rejected: $(head -1 "$work/$n.err")"
    fi
    continue ;;
  esac
  if [ $prc -ne 0 ]; then
    unread=$((unread+1))
    if [ $trc -ne 0 ]; then
      echo "FAIL $f: perf cannot read it (exit $prc) and neither do we (exit $trc): $(head -2 "$work/$n.err")"; failed=$((failed+1))
    else
      echo "ok $f: perf cannot read it (exit $prc: $(grep -v '^ *$' "$work/$n.perr" | head -1 | cut -c1-80)); we print $(wc -l <"$work/$n.got") lines"
    fi
    continue
  fi
  if [ $trc -ne 0 ]; then
    echo "FAIL $f: tracekit exited $trc: $(head -2 "$work/$n.err")"; failed=$((failed+1)); continue
  fi
  if cmp -s "$work/$n.want" "$work/$n.got"; then
    if reason=$(known_diff "$f"); then
      echo "FAIL $f: listed as a known difference but now identical: take it off the list"; failed=$((failed+1))
    else
      echo "ok $f: $(wc -l <"$work/$n.want") lines identical"; same=$((same+1))
    fi
  elif reason=$(known_diff "$f"); then
    echo "known $f: $(diff "$work/$n.want" "$work/$n.got" | grep -c '^>') lines differ: $reason"; known=$((known+1))
  else
    echo "FAIL $f: output differs from perf script ($(diff "$work/$n.want" "$work/$n.got" | grep -c '^>') lines):"
    diff "$work/$n.want" "$work/$n.got" | head -8 | cut -c1-200
    failed=$((failed+1))
  fi
done < <(find . -type f | LC_ALL=C sort)
echo "identical: $same, known differences: $known, unreadable by perf: $unread, failures: $failed"
[ $same -gt 0 ] || { echo "FAIL: nothing compared"; exit 1; }
[ $failed -eq 0 ]
