#!/usr/bin/env bash
# Oracle for perf -> CTF over the perf files of the shared test data (perf,
# simpleperf, quipper, perfparser... recordings of many perf versions and
# both byte orders): for every file that `perf data convert --to-ctf`
# itself converts, babeltrace2's text of our conversion (the library's perf
# source + CTF writer, through `tracekit convert`) must equal its text of
# perf's, without and with --all. Files perf refuses are not compared.
# Skipped (exit 77) when perf or babeltrace2 is missing.
set -u
: "${TK:?}" "${TK_TESTDATA:?}"
export TZ=UTC LC_ALL=C
for tool in perf babeltrace2; do
  command -v $tool >/dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0; checked=0; refused=0

while IFS= read -r f; do
  for all in "" --all; do
    rm -rf "$work/perf" "$work/ours"
    if ! timeout 120 perf data convert $all --to-ctf="$work/perf" -i "$f" >/dev/null 2>&1; then
      refused=$((refused+1)); continue
    fi
    checked=$((checked+1))
    name="${f#"$TK_TESTDATA"/} $all"
    if ! "$TK" convert $all "$f" -o "$work/ours" --to ctf 2>"$work/err"; then
      echo "FAIL $name: $(head -1 "$work/err")"; failed=$((failed+1)); continue
    fi
    babeltrace2 "$work/ours" >"$work/got" 2>&1
    babeltrace2 "$work/perf" >"$work/want" 2>&1
    if cmp -s "$work/got" "$work/want"; then
      echo "ok   $name ($(wc -l <"$work/want") lines)"
    else
      echo "FAIL $name"; diff "$work/got" "$work/want" | head -4 | cut -c1-300
      failed=$((failed+1))
    fi
  done
done < <(find "$TK_TESTDATA/perf" -type f \( -name '*.data*' -o -name 'perf.data*' \) -size -20M | sort)

echo "$checked compared, $refused refused by perf, $failed failed"
[ $checked -gt 0 ] || { echo "SKIP: perf converted none of the files"; exit 77; }
[ $failed -eq 0 ]
