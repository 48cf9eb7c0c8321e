#!/usr/bin/env bash
# perf report / perf diff quirks that a recording hits only by chance,
# on made-up samples in a fixed order (report/synth_perf.py writes the
# perf.data) over real images (report/synth_prog.c stripped, so one of
# its functions has no symbol, and report/synth_lib.c):
# - without --children a hist entry is made by a sample of its own, never
#   by a chain's frame: the first sample in prog has no symbol, after a
#   sample in libx whose chain names prog's main, so perf widens the
#   Shared Object column to 16 (hists__set_unres_dso_col_len);
# - rows of equal |delta| in perf diff: the one with the larger baseline
#   first (hist_entry__cmp_baseline), before the --sort keys;
# - a file without EVENT_DESC: the event is named from its attr with
#   perf's modifiers ("cpu-clock:u").
# Each is compared with perf diff / perf report on the same files.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}"
if ! command -v perf >/dev/null; then echo "SKIP: perf is not installed"; exit 77; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$TK_SOURCE_DIR/tests/oracle/report
cc -O1 -fPIE -pie -rdynamic -fno-omit-frame-pointer -o "$work/prog.full" "$src/synth_prog.c" &&
  strip -o "$work/prog" "$work/prog.full" &&
  cc -O1 -shared -fPIC -o "$work/libx.so" "$src/synth_lib.c" || { echo "FAIL: cannot build the images"; exit 1; }
synth() { # out samples...
  local out=$1; shift
  local args=()
  for s in "$@"; do args+=(--sample "$s"); done
  python3 "$src/synth_perf.py" "$out" --image "p=$work/prog:$work/prog.full" \
    --image "x=$work/libx.so" "${args[@]}"
}
lib="x:lib_fn+4 p:main+10" hidden="p:hidden_fn+2 p:main+10" named="p:named_in_prog+2 p:main+10"
main_self="p:main+10"
# a: lib first (its chain names prog's main), then prog without a symbol
synth "$work/a.data" "$lib" "$hidden" "$named" &&
  synth "$work/b.data" "$lib" "$hidden" "$named" "$named" &&
  # ties: c has lib_fn 50% named_in_prog 50%; d lib_fn 50% named_in_prog
  # 25% main 25% (only in d): |delta| 25 for named_in_prog and main
  synth "$work/c.data" "$lib" "$named" &&
  synth "$work/d.data" "$lib" "$lib" "$named" "$main_self" || { echo "FAIL: synth_perf.py"; exit 1; }

failed=0; checked=0
fail() { echo "FAIL $*"; failed=$((failed+1)); }
same() { # label want got
  checked=$((checked+1))
  if [ -s "$2" ] && cmp -s "$2" "$3"; then echo "ok   $1 ($(grep -c '%' "$2") rows)"
  else fail "$1:"; diff -U2 "$2" "$3" | head -20; fi
}
tidy() { grep -v '^#$' | grep -v '^# (Tip\|^$' | sed 's/ *$//'; }
for pair in "a b" "c d"; do
  set -- $pair
  for s in "" "--sort dso" "--sort sym" "--sort dso,sym"; do
    perf diff $s "$work/$1.data" "$work/$2.data" 2>/dev/null | tidy >"$work/want"
    "$TK" diff --no-children $s "$work/$1.data" "$work/$2.data" 2>"$work/err" | tidy >"$work/got"
    same "diff $1 $2 ${s:-(default)}: identical to perf diff" "$work/want" "$work/got"
  done
done
for s in dso sym dso,sym; do
  perf report -i "$work/a.data" --stdio --no-children -g none --sort "$s" 2>/dev/null |
    grep -v '^# \(To display\|Total Lost\|Samples\|Event count\)' | tidy >"$work/want"
  "$TK" report --no-children --sort "$s" "$work/a.data" 2>"$work/err" |
    grep -v '^# \(To display\|Total Lost\|Samples\|Event count\)' | tidy >"$work/got"
  same "report --no-children --sort $s: identical to perf report" "$work/want" "$work/got"
done
[ "$failed" -eq 0 ] && echo "all $checked checks equal to perf"
exit $((failed > 0))
