#!/usr/bin/env bash
# `tracekit convert X.data --to folded` equals, as a set of lines, the fold
# of `perf script` output made the way FlameGraph's stackcollapse-perf.pl
# makes it (default options; re-implemented here in awk): comm with spaces
# as '_', frames root first, "[unknown]" symbols named "[<dso basename>]",
# ';' -> ':', '(' and the rest cut unless "(anonymous namespace)", quotes
# dropped. Recordings of a fixed workload made here (system-wide ones
# depend on what else runs); skipped (77) without perf.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}"
if ! command -v perf >/dev/null; then echo "SKIP: perf is not installed"; exit 77; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O1 -g -fno-omit-frame-pointer -o "$work/workload" "$TK_SOURCE_DIR/examples/workload.c" || exit 1
if ! perf record -q -o "$work/probe.data" -- true >/dev/null 2>"$work/probe.err"; then
  echo "SKIP: perf cannot record here: $(head -1 "$work/probe.err")"; exit 77
fi

stackcollapse() {
  awk '
    function tidy(f) {
      gsub(/;/, ":", f)
      if (f !~ /\.\(.*\)\./) {
        rest = f; out = ""
        while ((i = index(rest, "(")) > 0) {
          if (substr(rest, i, 21) == "(anonymous namespace)") { out = out substr(rest, 1, i + 20); rest = substr(rest, i + 21); continue }
          rest = substr(rest, 1, i - 1); break
        }
        f = out rest
      }
      gsub(/["\047]/, "", f)
      return f
    }
    function flush() { if (have) { s = comm; for (i = n; i >= 1; i--) s = s ";" st[i]; cnt[s]++ } have = 0; n = 0 }
    /^$/ { flush(); next }
    have && /^[ \t]*[0-9a-f]+ .* \([^ ]*\)$/ {
      line = $0; sub(/^[ \t]*[0-9a-f]+ /, "", line)
      dso = line; sub(/.* \(/, "", dso); sub(/\)$/, "", dso)
      f = line; sub(/ \([^ ]*\)$/, "", f); sub(/\+0x[0-9a-f]+$/, "", f)
      if (f ~ /^\(/) next
      if (f == "[unknown]") { if (dso != "[unknown]") { f = dso; sub(/.*\//, "", f) } else f = "unknown"; f = "[" f "]" }
      st[++n] = tidy(f); next }
    /^[^ \t]/ {
      flush()
      if (match($0, / +[0-9]+(\/[0-9]+)? +/)) comm = substr($0, 1, RSTART - 1); else comm = $0
      gsub(/ /, "_", comm); have = 1; n = 0 }
    END { flush(); for (k in cnt) print k, cnt[k] }' | LC_ALL=C sort
}

failed=0; checked=0
check() {
  local name=$1; shift
  local data="$work/$name.data"
  if ! perf record -q -o "$data" "$@" >/dev/null 2>"$work/$name.rec.err" || [ ! -s "$data" ]; then
    echo "SKIP $name: perf record failed: $(grep -v '^\[' "$work/$name.rec.err" | head -1)"; return
  fi
  perf script -i "$data" 2>/dev/null | stackcollapse >"$work/$name.want"
  if ! "$TK" convert "$data" --to folded -o "$work/$name.folded" 2>"$work/$name.err"; then
    echo "FAIL $name: convert failed: $(head -3 "$work/$name.err")"; failed=$((failed+1)); return
  fi
  LC_ALL=C sort "$work/$name.folded" >"$work/$name.got"
  checked=$((checked+1))
  if cmp -s "$work/$name.want" "$work/$name.got"; then
    echo "ok $name: $(wc -l <"$work/$name.got") stacks, $(awk '{s+=$NF} END {print s}' "$work/$name.got") samples"
  else
    echo "FAIL $name: folded stacks differ"; diff "$work/$name.want" "$work/$name.got" | head -10; failed=$((failed+1))
  fi
}
check workload-g -g -- "$work/workload"
check user-g -e cpu-clock:u -g -- "$work/workload"
check kernel-g -e cpu-clock -g -- "$work/workload"
if [ "$checked" -eq 0 ]; then echo "SKIP: nothing could be checked"; exit 77; fi
[ "$failed" -eq 0 ] || exit 1
