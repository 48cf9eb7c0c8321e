#!/usr/bin/env bash
# tracekit view over every file of the shared test data: each either gives
# a page (exit 0, with its data element) or no page at all (exit 1, an
# error naming the file); the known-bad inputs (cpel/bad-*, dcpi/bad-*,
# ctf fail traces, the corrupted quipper and simpleperf files) are exit 1.
set -u
: "${TK:?}" "${TK_TESTDATA:?}"
T=$TK_TESTDATA
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
n=0; pages=0; refused=0; fail=0
for f in "$T"/perf/*/* "$T"/cpel/*.cpel "$T"/cpel/*.elog "$T"/dcpi/*.prof "$T"/ctf/babeltrace/succeed/* \
         "$T"/ctf/babeltrace/fail/* "$T"/ctf2/*/; do
  [ -e "$f" ] || continue
  case $f in *.expect|*README*) continue ;; esac
  n=$((n + 1))
  rm -f "$work/v.html"
  timeout 120 "$TK" view -q "$f" -o "$work/v.html" 2>"$work/err"; rc=$?
  case $f in
    */bad-*|*/ctf/babeltrace/fail/*|*zero_size_sample*|*/invalid_perf.data) want=1 ;;
    *) want= ;;
  esac
  if [ $rc -eq 0 ] && grep -q 'id="tk-meta"' "$work/v.html" && [ -z "$want" ]; then pages=$((pages + 1))
  elif [ $rc -eq 1 ] && [ ! -e "$work/v.html" ] && [ -s "$work/err" ]; then refused=$((refused + 1))
    [ -z "$want" ] && echo "note: $f: refused: $(head -1 "$work/err")"
  else echo "FAIL: $f: exit $rc (want ${want:-0 or 1}), page $([ -e "$work/v.html" ] && echo written || echo absent): $(head -1 "$work/err")"; fail=1
  fi
done
echo "$n inputs: $pages pages, $refused refused with no page"
exit $fail
