#!/usr/bin/env bash
# Oracle: `tracekit stats` on perf.data begins with `perf report --stats`'
# text, byte for byte (records per type, then samples and lost samples per
# event, each event named as perf names it), and tracekit's own counts
# (samples per CPU, lost and throttled records, the time span) follow.
# - every perf.data of ../shared/testdata that perf report --stats reads
#   (simpleperf's files without EVENT_DESC: "cycles:HG"; pipe files, whose
#   events perf's stats mode names from the attr: "cycles:uH");
# - recordings made here: file mode with two events and modifiers, and the
#   same recorded to a pipe (its EVENT_DESC arrives as a HEADER_FEATURE
#   record, which perf's stats mode skips).
# Files perf cannot read, or reads with a complaint on stderr (damaged
# ones, formats newer than its 6.1), are counted and skipped; the test
# fails if fewer than 40 files were compared.
set -u
: "${TK:?}" "${TK_TESTDATA:?}"
command -v perf >/dev/null || { echo "SKIP: perf is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0 checked=0 skipped=0

compare() { # FILE: perf's text = the first lines of ours
  local f=$1
  # perf's text is the reference only where perf read the file without a
  # complaint (probe.data.stream: it stops at "unexpected end of event
  # stream" after 2 of its 128 records)
  if ! perf report --stats -i "$f" >"$work/want" 2>"$work/perr" || [ ! -s "$work/want" ] ||
     [ -s "$work/perr" ]; then
    skipped=$((skipped+1)); return
  fi
  checked=$((checked+1))
  if ! "$TK" stats "$f" >"$work/got" 2>"$work/err"; then
    echo "FAIL $f: tracekit stats failed: $(head -1 "$work/err")"; failed=$((failed+1)); return
  fi
  head -n "$(wc -l <"$work/want")" "$work/got" >"$work/head"
  if ! cmp -s "$work/want" "$work/head"; then
    echo "FAIL $f: differs from perf report --stats"; diff "$work/want" "$work/head" | head -6
    failed=$((failed+1)); return
  fi
  # what follows perf's part is tracekit's own: it starts with its own lines
  sed -n "$(($(wc -l <"$work/want") + 1))p" "$work/got" |
    grep -Eq '^(Samples per CPU:|Records of unknown types:|samples of no known event|Lost: )' ||
    { echo "FAIL $f: no tracekit counts after perf's part"; failed=$((failed+1)); }
}

while IFS= read -r f; do
  compare "$f"
done < <(find "$TK_TESTDATA/perf" -type f | grep -Ev '\.(txt|json|md|sh|py|zst|gz)$|README' | LC_ALL=C sort)
echo "testdata: $checked files compared, $skipped skipped (perf cannot read them or complains)"
[ "$checked" -ge 40 ] || { echo "FAIL: only $checked testdata files compared"; failed=$((failed+1)); }

rec=0
if perf record -q -e cpu-clock:u -e task-clock -c 100000 -o "$work/two.data" -- \
     sh -c 'for i in 1 2 3; do ls -R /usr/lib >/dev/null 2>&1; done' >/dev/null 2>"$work/rec.err"; then
  compare "$work/two.data"; rec=$((rec+1))
  grep -q '^cpu-clock:u stats:$' "$work/got" ||
    { echo "FAIL two.data: no 'cpu-clock:u stats:' section"; failed=$((failed+1)); }
else
  echo "SKIP file-mode recording: $(head -1 "$work/rec.err")"
fi
if perf record -q -e cpu-clock:u -e task-clock -c 100000 -o - -- \
     sh -c 'for i in 1 2 3; do ls -R /usr/lib >/dev/null 2>&1; done' >"$work/pipe.data" 2>"$work/prec.err"; then
  compare "$work/pipe.data"; rec=$((rec+1))
else
  echo "SKIP pipe recording: $(head -1 "$work/prec.err")"
fi
echo "recordings made here: $rec compared"
[ $failed -eq 0 ] && echo "stats agrees with perf report --stats ($((checked)) files)"
exit $((failed > 0))
