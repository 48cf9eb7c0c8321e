#!/usr/bin/env bash
# Oracle: `tracekit report` on perf.data gives, per symbol, the same
# percentages as `perf report --stdio --no-children --sort sym` (to 0.01%);
# `tracekit diff A A` shows a zero delta everywhere. Recordings made here
# (skipped where perf cannot record), then the testdata perf.data files
# perf reads (see below for what is left out).
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}"
if ! command -v perf >/dev/null; then echo "SKIP: perf is not installed"; exit 77; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O1 -g -fno-omit-frame-pointer -o "$work/workload" "$TK_SOURCE_DIR/examples/workload.c" || exit 1
if ! perf record -q -o "$work/probe.data" -- true >/dev/null 2>"$work/probe.err"; then
  echo "SKIP: perf cannot record here: $(head -1 "$work/probe.err")"; exit 77
fi
failed=0; checked=0
check() {
  local name=$1; shift
  local data="$work/$name.data"
  if ! perf record -q -o "$data" "$@" >/dev/null 2>"$work/$name.rec.err" || [ ! -s "$data" ]; then
    echo "SKIP $name: perf record failed"; return
  fi
  # perf: "    65.63%  [.] hash_loop" -> "hash_loop 65.63", summed per name on
  # both sides; addresses without a symbol are rows of their own on both
  # sides ("[.] 0x0000000000004883", per image-relative address)
  perf report -i "$data" --stdio --no-children --sort sym 2>/dev/null |
    awk '/^ +[0-9.]+%  \[[.kgHu]\] / { p = $1; sub(/%/, "", p); $1 = ""; $2 = ""; sub(/^ +/, ""); sum[$0] += p; n[$0]++ } END { for (k in sum) printf "%s\t%.2f\t%d\n", k, sum[k], n[k] }' |
    LC_ALL=C sort >"$work/$name.want"
  if ! "$TK" report "$data" >"$work/$name.out" 2>"$work/$name.err"; then
    echo "FAIL $name: report failed: $(head -3 "$work/$name.err")"; failed=$((failed+1)); return
  fi
  awk '/^ +[0-9]+ +[0-9.]+% +[0-9.]+%  / { p = $2; sub(/%/, "", p); line = $0; sub(/^ +[0-9]+ +[0-9.]+% +[0-9.]+%  /, "", line); sub(/  [^ ]+$/, "", line); sub(/ +$/, "", line); sum[line] += p; n[line]++ } END { for (k in sum) printf "%s\t%.2f\t%d\n", k, sum[k], n[k] }' \
    "$work/$name.out" | LC_ALL=C sort >"$work/$name.got"
  checked=$((checked+1))
  # the same symbols with percentages within 0.01
  if join -t "$(printf '\t')" -a1 -a2 -e MISSING -o 0,1.2,2.2,1.3,2.3 "$work/$name.want" "$work/$name.got" |
     awk -F'\t' '{ tol = 0.01 * ($4 > $5 ? $4 : $5) + 0.0001 }
       $2 == "MISSING" || $3 == "MISSING" || ($2 - $3 > tol || $3 - $2 > tol) { print "  " $0; bad = 1 } END { exit bad }'; then
    echo "ok $name: $(wc -l <"$work/$name.want") symbols agree with perf report"
  else
    echo "FAIL $name: percentages differ from perf report (symbol, perf, ours above)"; failed=$((failed+1))
  fi
  if "$TK" diff "$data" "$data" >"$work/$name.diff" 2>&1 && ! grep -Eq '[+-][0-9.]*[1-9][0-9.]*%' "$work/$name.diff" &&
     [ "$(grep -c '^ ' "$work/$name.diff")" -gt 0 ]; then
    echo "ok $name: diff A A has zero deltas"
  else
    echo "FAIL $name: diff A A"; head -5 "$work/$name.diff"; failed=$((failed+1))
  fi
}
check kernel -e cpu-clock -- "$work/workload"
check user-g -e cpu-clock:u -g -- "$work/workload"
check default-g -g -- "$work/workload"
# a stripped program (Debian's gzip): most samples have no symbol, and
# perf report lists them per address (tracekit merged them into one
# "[unknown]" row per image)
if [ -x /usr/bin/gzip ]; then
  head -c 4000000 /dev/urandom >"$work/random.bin"
  check stripped-gzip -e cpu-clock -c 20000 -- /usr/bin/gzip -c "$work/random.bin"
fi

# The perf.data files of ../shared/testdata that perf reads (recordings
# from other machines: same kernel/vdso/symbol rules as perf script). Not
# compared: perf's branch mode (files whose samples carry branch stacks:
# perf report then histograms branches, not samples) and event groups
# (perf prints one column per member), hardware trace files (intel_pt,
# cs_etm, arm_spe: perf synthesizes samples from AUX data tracekit does not
# decode). Addresses without a symbol are
# compared per address as above.
# NAME reason: known differences
report_known() {
  case $1 in
  lpd/sleep.compressed.pipe.data) echo "perf shows a kallsyms data symbol (STT_OBJECT) as sym+0xoffset of its first sample" ;;
  *) return 1 ;;
  esac
}
if [ -n "${TK_TESTDATA:-}" ] && [ -d "$TK_TESTDATA/perf" ]; then
  td_ok=0
  while IFS= read -r f; do
    f=${f#"$TK_TESTDATA/perf/"}
    data="$TK_TESTDATA/perf/$f"
    perf script -i "$data" >/dev/null 2>&1 || continue
    perf evlist -v -i "$data" 2>/dev/null | grep -q 'BRANCH_STACK' && continue
    perf evlist -i "$data" 2>/dev/null | grep -Eq '^(intel_pt|cs_etm|arm_spe)' && continue
    n=td_$(echo "$f" | tr / _)
    perf report -i "$data" --stdio --no-children --sort sym 2>/dev/null >"$work/$n.perf"
    grep -q "of events 'anon group\|of events '{" "$work/$n.perf" && continue
    awk '/^ +[0-9.]+%  \[[.kgHu]\] / { p = $1; sub(/%/, "", p); $1 = ""; $2 = ""; sub(/^ +/, ""); sum[$0] += p; n[$0]++ } END { for (k in sum) printf "%s\t%.2f\t%d\n", k, sum[k], n[k] }' \
      "$work/$n.perf" | LC_ALL=C sort >"$work/$n.want"
    if ! "$TK" report "$data" >"$work/$n.out" 2>"$work/$n.err"; then
      echo "FAIL $f: report failed: $(head -2 "$work/$n.err")"; failed=$((failed+1)); continue
    fi
    # several events: perf's percentages are per event as ours are; the
    # sums per name over the events are compared
    awk '/^ +[0-9]+ +[0-9.]+% +[0-9.]+%  / { p = $2; sub(/%/, "", p); line = $0; sub(/^ +[0-9]+ +[0-9.]+% +[0-9.]+%  /, "", line); sub(/  +[^ ].*$/, "", line); sub(/ +$/, "", line); sum[line] += p; n[line]++ } END { for (k in sum) printf "%s\t%.2f\t%d\n", k, sum[k], n[k] }' \
      "$work/$n.out" | LC_ALL=C sort >"$work/$n.got"
    if join -t "$(printf '\t')" -a1 -a2 -e MISSING -o 0,1.2,2.2,1.3,2.3 "$work/$n.want" "$work/$n.got" |
       awk -F'\t' '{ tol = 0.01 * ($4 > $5 ? $4 : $5) + 0.0001 }
         $2 == "MISSING" || $3 == "MISSING" || ($2 - $3 > tol || $3 - $2 > tol) { bad = 1 } END { exit bad }'; then
      if reason=$(report_known "$f"); then
        echo "FAIL $f: listed as a known difference but agrees now"; failed=$((failed+1))
      else
        td_ok=$((td_ok+1))
      fi
    elif reason=$(report_known "$f"); then
      echo "known $f: $reason"
    else
      echo "FAIL $f: percentages differ from perf report (symbol, perf, ours):"
      join -t "$(printf '\t')" -a1 -a2 -e MISSING -o 0,1.2,2.2 "$work/$n.want" "$work/$n.got" |
        awk -F'\t' '$2 == "MISSING" || $3 == "MISSING" || $2 - $3 > 0.011 || $3 - $2 > 0.011' | head -5
      failed=$((failed+1))
    fi
  done < <(find "$TK_TESTDATA/perf" -type f | LC_ALL=C sort)
  echo "ok testdata: $td_ok files agree with perf report"
  checked=$((checked+td_ok))
fi
if [ "$checked" -eq 0 ]; then echo "SKIP: nothing could be checked"; exit 77; fi
[ "$failed" -eq 0 ] || exit 1
