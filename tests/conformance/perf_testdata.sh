#!/usr/bin/env bash
# Every perf.data file in ../shared/testdata/perf reads to the end
# (`tracekit stats` exits 0), except the two known-bad files, which must end
# in a clear error: exit 1 and a message naming the file and the offset.
set -u
: "${TK:?}" "${TK_TESTDATA:?}"
bad_files=" quipper/perf.data.piped.corrupted.zero_size_sample-3.2 simpleperf/invalid_perf.data "
pass=0; fail=0
cd "$TK_TESTDATA/perf" || exit 1
for f in */*; do
  [ -f "$f" ] || continue
  out=$("$TK" stats "$f" 2>&1 >/dev/null); rc=$?
  if [[ "$bad_files" == *" $f "* ]]; then
    if [ $rc -eq 1 ] && [[ "$out" == "tracekit: $f: offset 0x"* ]]; then
      pass=$((pass+1))
    else
      echo "FAIL $f: want exit 1 with 'tracekit: $f: offset 0x...', got $rc: $out"; fail=$((fail+1))
    fi
  elif [ $rc -eq 0 ]; then
    pass=$((pass+1))
  else
    echo "FAIL $f: exit $rc: $out"; fail=$((fail+1))
  fi
done
# stdin pipe mode ("-") reads the same as the file.
for f in quipper/perf.data.piped.target-3.8 lpd/sleep.compressed2.pipe.data; do
  if ! cmp -s <("$TK" stats - <"$f") <("$TK" stats "$f"); then
    echo "FAIL $f: stats from stdin differ from stats of the file"; fail=$((fail+1))
  else
    pass=$((pass+1))
  fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
