#!/usr/bin/env bash
# `tracekit convert X.data --to folded` equals, as a set of lines, the fold
# of `perf script` output made the way FlameGraph's stackcollapse-perf.pl
# makes it (default options; re-implemented here in awk): comm with spaces
# as '_', frames root first, "[unknown]" symbols named "[<dso basename>]",
# ';' -> ':', '(' and the rest cut unless "(anonymous namespace)", quotes
# dropped; each stack weighs its samples' periods; one event only; a sample
# with an empty call chain ends in its own IP. Recordings of a fixed
# workload made here (system-wide ones depend on what else runs) and two
# testdata files; skipped (77) without perf.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}"
if ! command -v perf >/dev/null; then echo "SKIP: perf is not installed"; exit 77; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O1 -g -fno-omit-frame-pointer -o "$work/workload" "$TK_SOURCE_DIR/examples/workload.c" || exit 1
if ! perf record -q -o "$work/probe.data" -- true >/dev/null 2>"$work/probe.err"; then
  echo "SKIP: perf cannot record here: $(head -1 "$work/probe.err")"; exit 77
fi

# stackcollapse LEAVES [EVENT] < perf-script-output: LEAVES is `perf script
# -G -F ip,sym,dso` of the same file (one line per sample: its IP), the
# leaf of a sample whose call chain is empty; EVENT the event to fold
# (default: the first met, as the script does). Each stack weighs the
# sample's period, as stackcollapse-perf.pl weighs them.
stackcollapse() {
  awk -v want="${2:-}" '
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
    # "ip sym+0x1f (dso)" -> the folded frame, "" for a frame the script skips
    function frame(line,   dso, f) {
      sub(/^[ \t]*[0-9a-f]+ /, "", line)
      dso = line; sub(/.* \(/, "", dso); sub(/\)$/, "", dso)
      f = line; sub(/ \([^ ]*\)$/, "", f); sub(/\+0x[0-9a-f]+$/, "", f)
      if (f ~ /^\(/) return ""
      if (f == "[unknown]") { if (dso != "[unknown]") { f = dso; sub(/.*\//, "", f) } else f = "unknown"; f = "[" f "]" }
      return tidy(f)
    }
    # the header of a sample: "comm tid [cpu] time: period event:"
    function header(line,   t, nf) {
      sub(/[ \t]+$/, "", line)
      nf = split(line, t, / +/)
      ev = t[nf]; sub(/:$/, "", ev)
      period = (t[nf - 1] ~ /^[0-9]+$/) ? t[nf - 1] : 1
    }
    function flush() {
      if (have && keep) {
        if (n == 0 && leaf[k] != "") st[++n] = leaf[k]
        s = comm; for (i = n; i >= 1; i--) s = s ";" st[i]; cnt[s] += period
      }
      have = 0; n = 0
    }
    FNR == NR { leaf[FNR] = frame($0); next }   # perf script -G -F ip,sym,dso
    /^$/ { flush(); next }
    have && /^[ \t]*[0-9a-f]+ .* \([^ ]*\)$/ { f = frame($0); if (f != "") st[++n] = f; next }
    /^[^ \t]/ {
      flush(); k++
      header($0)
      if (want == "") want = ev
      keep = (ev == want)
      if (match($0, / +[0-9]+(\/[0-9]+)? +/)) comm = substr($0, 1, RSTART - 1); else comm = $0
      gsub(/ /, "_", comm); have = 1; n = 0 }
    END { flush(); for (x in cnt) printf "%s %.0f\n", x, cnt[x] }' "$1" - | LC_ALL=C sort
}

failed=0; checked=0
# compare NAME DATA [EVENT]: tracekit's folding of DATA (with --event EVENT
# when given) against the script's; with several events and no EVENT,
# tracekit must warn and name the events it left out
compare() {
  local name=$1 data=$2 event=${3:-}
  if ! perf script -i "$data" >/dev/null 2>&1; then echo "SKIP $name: perf script cannot read it"; return; fi
  perf script -i "$data" -G -F ip,sym,dso 2>/dev/null >"$work/$name.leaves"
  perf script -i "$data" 2>/dev/null | stackcollapse "$work/$name.leaves" "$event" >"$work/$name.want"
  if ! "$TK" convert "$data" --to folded ${event:+--event "$event"} -o "$work/$name.folded" 2>"$work/$name.err"; then
    echo "FAIL $name: convert failed: $(head -3 "$work/$name.err")"; failed=$((failed+1)); return
  fi
  LC_ALL=C sort "$work/$name.folded" >"$work/$name.got"
  checked=$((checked+1))
  local events others
  events=$(perf evlist -i "$data" 2>/dev/null | grep -cv '^dummy\|^#')
  if [ -z "$event" ] && [ "$events" -gt 1 ] && ! grep -q "folded stacks of event .* only; also in the file: " "$work/$name.err"; then
    echo "FAIL $name: $events events and no warning naming the others: $(head -2 "$work/$name.err")"; failed=$((failed+1)); return
  fi
  if cmp -s "$work/$name.want" "$work/$name.got"; then
    echo "ok $name: $(wc -l <"$work/$name.got") stacks, weight $(awk '{s+=$NF} END {printf "%.0f", s}' "$work/$name.got")"
  else
    echo "FAIL $name: folded stacks differ (script <, tracekit >)"; diff "$work/$name.want" "$work/$name.got" | head -10; failed=$((failed+1))
  fi
}
# record NAME [EVENT] -- PERF-RECORD-ARGS
record() {
  local name=$1 event=$2; shift 2
  local data="$work/$name.data"
  if ! perf record -q -o "$data" "$@" >/dev/null 2>"$work/$name.rec.err" || [ ! -s "$data" ]; then
    echo "SKIP $name: perf record failed: $(grep -v '^\[' "$work/$name.rec.err" | head -1)"; return
  fi
  compare "$name" "$data" "$event"
}
record workload-g "" -g -- "$work/workload"
record user-g "" -e cpu-clock:u -g -- "$work/workload"
record kernel-g "" -e cpu-clock -g -- "$work/workload"
# fixed period: each sample weighs 12345
record fixed-period "" -e cpu-clock -c 12345 -g -- "$work/workload"
# user-mode samples carry an empty call chain: their IP is the leaf
record kernel-callchains "" -e cpu-clock -g --kernel-callchains -- "$work/workload"
# two events: the first is folded (and the other named in a warning), or
# the one --event names
record two-events "" -e cpu-clock,task-clock -c 50000 -g -- "$work/workload"
[ -s "$work/two-events.data" ] && compare two-events-task "$work/two-events.data" task-clock
# testdata recordings with empty call chains (dwarf mode, user chains
# excluded; their binaries are not here, so perf unwinds nothing either)
if [ -n "${TK_TESTDATA:-}" ]; then
  for f in perfparser/vector_static_gcc__perf.data perfparser/vector_static_clang__perf.data \
           perfparser/fork_static_gcc__perf.data.zstd \
           simpleperf/has_embedded_native_libs_apk_perf.data; do
    [ -f "$TK_TESTDATA/perf/$f" ] && compare "$(basename "$f")" "$TK_TESTDATA/perf/$f"
  done
fi
if [ "$checked" -eq 0 ]; then echo "SKIP: nothing could be checked"; exit 77; fi
[ "$failed" -eq 0 ] || exit 1
