#!/usr/bin/env bash
# Oracle: `tracekit print --format perf-script` is byte-identical to
# `perf script` on recordings made here: -e cpu-clock:u, -e cpu-clock:u -g,
# -e cpu-clock, -g, -e sched:sched_switch -a, two timer tracepoints
# whose print fmt names kernel functions, and code behind hidden and
# internal labels (tests/oracle/symbols/labels.c). A FlameGraph-style fold of
# our output (stackcollapse-perf.pl's rules, in awk) equals the fold of
# perf's. Skipped (77, with the reason) where perf cannot record.
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

# stackcollapse-perf.pl's folding: header line starts a sample (comm =
# everything before the pid column, spaces -> _), frame lines
# "ip sym+off (dso)" are pushed leaf first, a blank line ends the sample.
fold() {
  awk '
    function flush() { if (have) { s = comm; for (i = n; i >= 1; i--) s = s ";" st[i]; cnt[s]++ } have = 0; n = 0 }
    /^$/ { flush(); next }
    /^\t/ || /^ +[0-9a-f]+ / && have {
      line = $0; sub(/^[ \t]+[0-9a-f]+ /, "", line)
      dso = line; sub(/.* \(/, "", dso); sub(/\)$/, "", dso)
      sym = line; sub(/ \([^(]*\)$/, "", sym); sub(/\+0x[0-9a-f]+$/, "", sym)
      if (sym == "[unknown]" && dso != "[unknown]") { sym = dso; sub(/.*\//, "", sym); sym = "[" sym "]" }
      gsub(/;/, ":", sym)
      st[++n] = sym; next }
    { flush(); line = $0; sub(/^ +/, "", line)
      if (match(line, / +[0-9]+(\/[0-9]+)? +(\[[0-9]+\] +)?[0-9]+\.[0-9]+: /)) { comm = substr(line, 1, RSTART - 1) } else { comm = line }
      gsub(/ /, "_", comm); have = 1; n = 0 }
    END { flush(); for (k in cnt) print k, cnt[k] }' | LC_ALL=C sort
}

check() {
  local name=$1; shift
  local data="$work/$name.data"
  if ! perf record -q -o "$data" "$@" >/dev/null 2>"$work/$name.rec.err" || [ ! -s "$data" ]; then
    echo "SKIP $name: perf record failed: $(grep -v '^\[' "$work/$name.rec.err" | head -1)"
    return
  fi
  perf script -i "$data" >"$work/$name.want" 2>/dev/null
  if [ ! -s "$work/$name.want" ]; then echo "SKIP $name: perf script printed nothing"; return; fi
  if ! "$TK" print --format perf-script "$data" >"$work/$name.got" 2>"$work/$name.err"; then
    echo "FAIL $name: tracekit exited non-zero: $(head -3 "$work/$name.err")"; failed=$((failed+1)); return
  fi
  checked=$((checked+1))
  if cmp -s "$work/$name.want" "$work/$name.got"; then
    echo "ok $name: $(wc -l <"$work/$name.want") lines identical"
  else
    echo "FAIL $name: output differs from perf script ($(diff "$work/$name.want" "$work/$name.got" | grep -c '^>') lines):"
    diff "$work/$name.want" "$work/$name.got" | head -10
    failed=$((failed+1))
  fi
  fold <"$work/$name.want" >"$work/$name.fold.want"
  fold <"$work/$name.got" >"$work/$name.fold.got"
  if ! cmp -s "$work/$name.fold.want" "$work/$name.fold.got"; then
    echo "FAIL $name: folded stacks of our output differ from perf's"; failed=$((failed+1))
  fi
}

check user -e cpu-clock:u -- "$work/workload"
check user-g -e cpu-clock:u -g -- "$work/workload"
check kernel -e cpu-clock -- "$work/workload"
check default-g -g -- "$work/workload"
check sched-switch -e sched:sched_switch -a -- sleep 0.2
# two events with fixed periods (-c: no PERIOD in the samples), a :S group
# read through PERF_SAMPLE_READ (one line per member, period = growth)
check two-events -e cpu-clock:u -e task-clock -c 100000 -- "$work/workload"
check group-read -e '{cpu-clock,task-clock}:S' -- "$work/workload"
# two events (name column width) whose print fmt resolves kernel functions (%ps)
check timers -e timer:hrtimer_start -e timer:hrtimer_expire_entry -a -- sleep 0.2
# system wide with call chains: idle CPUs' chains end in start_kernel and
# x86_64_start_kernel (.init.text, past the _etext the kernel MMAP ends at);
# perf names them because loading kallsyms extends the kernel map
check idle-g -g -e sched:sched_switch -e cpu-clock -a -- sh -c 'ls >/dev/null; sleep 0.3'
if [ -s "$work/idle-g.want" ] && ! grep -q "start_kernel" "$work/idle-g.want"; then
  echo "note idle-g: no start_kernel frame in this recording (the case is weaker here)"
fi

# labels (untyped symbols): perf names code by a hidden or internal one
# never (zstd's HUF_*_asm_loop in tracekit itself is one); -no-pie keeps
# their visibility in the executable's .symtab (a PIE makes them local)
if [ "$(uname -m)" = x86_64 ] && cc -O2 -no-pie -o "$work/labels" "$TK_SOURCE_DIR/tests/oracle/symbols/labels.c"; then
  if readelf -sW "$work/labels" | grep -q " HIDDEN .* hidden_loop$"; then
    check labels -e cpu-clock:u -- "$work/labels" 300000000
    if [ -s "$work/labels.want" ] && ! grep -q "seen_loop+0x" "$work/labels.want"; then
      echo "FAIL labels: perf names no sample seen_loop"; failed=$((failed+1))
    fi
  else
    echo "note labels: the linker made hidden_loop local here; not checked"
  fi
fi

if [ "$checked" -eq 0 ]; then echo "SKIP: no recording could be checked"; exit 77; fi
[ "$failed" -eq 0 ] || { echo "$failed failure(s)"; exit 1; }
echo "all $checked recordings identical"
