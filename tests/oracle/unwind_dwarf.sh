#!/usr/bin/env bash
# DWARF unwinding (issue 16): fresh `perf record --call-graph dwarf`
# recordings of programs built WITHOUT frame pointers (C at -O0 and -O2
# with an inlined function, C++ -O2 with deep template inlining, functions
# without CFI, python3):
# - `tracekit print --format perf-script` is byte-identical to `perf
#   script` (every frame's ip, symbol+offset, image and perf's "(inlined)"
#   frames), and most samples do have callers (the unwinding did happen);
# - the cached CFI walk gives the same bytes as libdwfl's own walk
#   (TRACEKIT_UNWIND_NO_CACHE=1, which also makes libdwfl find the inline
#   frames' DWARF), and the prefetching worker (TRACEKIT_UNWIND_PREFETCH=1)
#   the same bytes as loading each image's DWARF on first use;
# - the C program's known chain main -> top -> mid_b -> mid_a -> leaf
#   (spin inlined into leaf) is found in our output, and so is the chain
#   through a frame whose CFA is kept in rbx (rbxcfa.c);
# - `convert --to folded` equals stackcollapse-perf.pl's fold of perf
#   script's text, weighted by period (rule below);
# - `convert --to pprof`: go tool pprof -top -cum gives each function the
#   share of perf script's period whose stacks hold it (inline frames are
#   functions of their own, except at the leaf, which is report's symbol
#   so that pprof's flat column stays report's; skipped without go);
# Skipped (77) where perf cannot record.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}"
if ! command -v perf >/dev/null; then echo "SKIP: perf is not installed"; exit 77; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! perf record -q -o "$work/probe.data" -- true >/dev/null 2>"$work/probe.err"; then
  echo "SKIP: perf cannot record here: $(head -1 "$work/probe.err")"; exit 77
fi
if [ "$("$TK" print --format perf-script "$work/probe.data" >/dev/null 2>&1; echo $?)" != 0 ]; then
  echo "FAIL: tracekit cannot read a perf.data"; exit 1
fi
src="$TK_SOURCE_DIR/tests/oracle/unwind"
failed=0; checked=0
fail() { echo "FAIL $*"; failed=$((failed+1)); }

# stackcollapse-perf.pl's fold of perf script text, weighted by period:
# the header line gives comm (spaces -> _) and period (the number before
# the event name), frame lines "ip sym+off (dso)" are pushed leaf first
# ("sym+off (inlined)" too: its own frame), sym without +off, [unknown]
# becomes [basename of dso] when the dso is known, ';' -> ':'.
fold() {
  awk '
    function flush() { if (have) { s = comm; for (i = n; i >= 1; i--) s = s ";" st[i]; cnt[s] += per } have = 0; n = 0 }
    /^$/ { flush(); next }
    /^\t/ && have {
      line = $0; sub(/^[ \t]+[0-9a-f]+ /, "", line)
      dso = line; sub(/.* \(/, "", dso); sub(/\)$/, "", dso)
      sym = line; sub(/ \([^(]*\)$/, "", sym); sub(/\+0x[0-9a-f]+$/, "", sym)
      if (sym == "[unknown]" && dso != "[unknown]") { sym = dso; sub(/.*\//, "", sym); sym = "[" sym "]" }
      gsub(/;/, ":", sym)
      st[++n] = sym; next }
    { flush(); line = $0; sub(/^ +/, "", line)
      if (match(line, / +[0-9]+(\/[0-9]+)? +(\[[0-9]+\] +)?[0-9]+\.[0-9]+: /)) { comm = substr(line, 1, RSTART - 1) } else { comm = line }
      rest = substr(line, RSTART + RLENGTH); sub(/^ +/, "", rest); split(rest, f, " "); per = f[1] + 0
      gsub(/ /, "_", comm); have = 1; n = 0 }
    END { flush(); for (k in cnt) print k, cnt[k] }' | LC_ALL=C sort
}

check() { # name command...
  local name=$1; shift
  local data="$work/$name.data"
  if ! perf record -q --call-graph dwarf -e cpu-clock:u -F 2000 -o "$data" -- "$@" >/dev/null 2>"$work/$name.rec.err" || [ ! -s "$data" ]; then
    echo "SKIP $name: perf record failed: $(grep -v '^\[' "$work/$name.rec.err" | head -1)"; return
  fi
  perf script -i "$data" >"$work/$name.want" 2>/dev/null
  if [ ! -s "$work/$name.want" ]; then echo "SKIP $name: perf script printed nothing"; return; fi
  if ! "$TK" print --format perf-script "$data" >"$work/$name.got" 2>"$work/$name.err"; then
    fail "$name: tracekit exited non-zero: $(head -3 "$work/$name.err")"; return
  fi
  checked=$((checked+1))
  local samples deep
  samples=$(grep -c 'cpu-clock:u:' "$work/$name.want")
  # samples whose stack has more than 2 frames: callers came from unwinding
  deep=$(awk '/cpu-clock:u:/ {n=0; s=1; next} /^\t/ {n++; next} /^$/ && s {if (n > 2) d++; s=0} END {print d+0}' "$work/$name.want")
  if [ "$deep" -lt $((samples / 2)) ]; then fail "$name: only $deep of $samples samples unwound past 2 frames"; fi
  if cmp -s "$work/$name.want" "$work/$name.got"; then
    echo "ok   $name: perf script == tracekit ($samples samples, $deep unwound, $(grep -c '(inlined)' "$work/$name.want") inline frames, $(grep -c '(\[vdso\])' "$work/$name.want") vdso frames)"
  else
    fail "$name: differs from perf script ($(diff "$work/$name.want" "$work/$name.got" | grep -c '^>') lines):"
    diff "$work/$name.want" "$work/$name.got" | head -10
  fi
  # the cached CFI walk (src/unwind/unwind_fast.c) gives what libdwfl's
  # own walk gives, sample for sample
  if ! TRACEKIT_UNWIND_NO_CACHE=1 "$TK" print --format perf-script "$data" >"$work/$name.slow" 2>/dev/null; then
    fail "$name: tracekit exited non-zero with TRACEKIT_UNWIND_NO_CACHE=1"
  elif ! cmp -s "$work/$name.slow" "$work/$name.got"; then
    fail "$name: cached CFI walk differs from libdwfl's walk:"
    diff "$work/$name.slow" "$work/$name.got" | head -6
  else
    echo "ok   $name: cached CFI walk == libdwfl walk"
  fi
  # the per-image DWARF loaded ahead by the worker thread gives the same
  # inline frames as loading it on first use
  if ! TRACEKIT_UNWIND_PREFETCH=1 "$TK" print --format perf-script "$data" >"$work/$name.pre" 2>/dev/null; then
    fail "$name: tracekit exited non-zero with TRACEKIT_UNWIND_PREFETCH=1"
  elif ! cmp -s "$work/$name.pre" "$work/$name.got"; then
    fail "$name: the prefetching worker changes the output:"
    diff "$work/$name.pre" "$work/$name.got" | head -6
  else
    echo "ok   $name: prefetch worker == load on first use"
  fi
  fold <"$work/$name.want" >"$work/$name.fold.want"
  if ! "$TK" convert --to folded -o "$work/$name.folded" "$data" 2>"$work/$name.ferr"; then
    fail "$name: convert --to folded: $(head -2 "$work/$name.ferr")"
  elif ! LC_ALL=C sort "$work/$name.folded" | cmp -s "$work/$name.fold.want" -; then
    fail "$name: folded stacks differ from the fold of perf script:"
    LC_ALL=C sort "$work/$name.folded" | diff "$work/$name.fold.want" - | head -6
  else
    echo "ok   $name: convert --to folded == fold(perf script) ($(wc -l <"$work/$name.fold.want") stacks)"
  fi
  # pprof: each function's cumulative share (go tool pprof -top -cum)
  # is the share of perf script's period whose stack holds it
  if [ -n "$have_pprof" ]; then
    if ! "$TK" convert --to pprof -o "$work/$name.pb.gz" "$data" 2>"$work/$name.perr"; then
      fail "$name: convert --to pprof: $(head -2 "$work/$name.perr")"
    elif ! HOME="$work/home" GOCACHE="$work/gocache" GOFLAGS=-mod=mod GOTOOLCHAIN=local PPROF_TMPDIR="$work" \
         go tool pprof -top -cum -nodecount=100000 "$work/$name.pb.gz" >"$work/$name.top" 2>"$work/$name.perr"; then
      fail "$name: go tool pprof: $(head -2 "$work/$name.perr")"
    elif /usr/bin/python3 - "$work/$name.want" "$work/$name.top" <<'PY'; then
import re, sys
# perf script's samples: period and frames (name, inlined), leaf first
samples, cur = [], None
for l in open(sys.argv[1]):
    l = l.rstrip("\n")
    if not l:
        if cur: samples.append(cur)
        cur = None
    elif l.startswith("\t"):
        m = re.match(r"^\s*[0-9a-f]+ (.*?)(?:\+0x[0-9a-f]+)? \((.*)\)$", l)
        cur[1].append((m.group(1), m.group(2) == "inlined"))
    else:
        m = re.search(r"(\d+) \S+: *$", l)
        cur = [int(m.group(1)), []]
if cur: samples.append(cur)
# pprof's leaf is report's: the sample ip's own symbol, without the
# inline frames perf script prints at it; those names are not compared
total, cum, skip = 0, {}, set()
for w, frames in samples:
    total += w
    i = 0
    while i < len(frames) and frames[i][1]:
        skip.add(frames[i][0]); i += 1
    for f in set(n for n, _ in frames[i:]):
        cum[f] = cum.get(f, 0) + w
bad = n = 0
for l in open(sys.argv[2]):
    m = re.match(r"^\s*\S+\s+[0-9.]+%\s+[0-9.]+%\s+\S+\s+([0-9.]+)%\s+(.*)$", l.rstrip())
    if not m or m.group(2) in skip or m.group(2) not in cum or m.group(2).startswith("0x"):
        continue  # unresolved (pprof names them by address), leaf aliases
    n += 1
    want = 100.0 * cum[m.group(2)] / total
    if abs(float(m.group(1)) - want) > 0.011:
        bad += 1
        print("  %s: pprof cum %s%%, perf script %.2f%%" % (m.group(2), m.group(1), want))
sys.exit(1 if bad or not n else 0)
PY
      echo "ok   $name: go tool pprof -top -cum == the stacks of perf script"
    else
      fail "$name: pprof's cumulative shares differ from perf script's stacks"
    fi
  fi
}
have_pprof=
if command -v go >/dev/null && go tool -n pprof >/dev/null 2>&1; then
  have_pprof=1
  # go's caches go there; HOME itself stays: perf and tracekit read
  # ~/.debug (the [vdso] copies, perf's build-id cache)
  mkdir -p "$work/home"
fi

chain_found() { # name: the known chain, leaf first, in our output
  awk -v want="leaf;mid_a;mid_b;top;main" '
    /cpu-clock:u:/ {s=""; next}
    /^\t/ {sym=$2; sub(/\+0x.*/, "", sym); s = s (s == "" ? "" : ";") sym; next}
    /^$/ { if (index(s, want) || index(s, "spin;" want)) found=1; s="" }
    END {exit !found}' "$work/$1.got" || fail "$1: no sample with the chain main -> top -> mid_b -> mid_a -> leaf"
}

if cc -g -O0 -fomit-frame-pointer -o "$work/calls-O0" "$src/calls.c"; then
  check c-O0 "$work/calls-O0" 4000000 && chain_found c-O0
fi
if cc -g -O2 -fomit-frame-pointer -o "$work/calls-O2" "$src/calls.c"; then
  check c-O2 "$work/calls-O2" 8000000 && chain_found c-O2
  grep -q 'spin+0x[0-9a-f]* (inlined)' "$work/c-O2.got" || fail "c-O2: no (inlined) frame for spin"
fi
if command -v c++ >/dev/null && c++ -g -O2 -fomit-frame-pointer -o "$work/calls-cpp" "$src/calls.cpp"; then
  check cpp-O2 "$work/calls-cpp" 3000000
fi
# functions without CFI (x86_64 assembly): perf's unwinder guesses the
# caller from rbp; spin_sub's samples name middle as its caller (with_fp,
# whose frame pointer the guess followed, skipped), spin_fp's its caller
if [ "$(uname -m)" = x86_64 ] && cc -g -O2 -fomit-frame-pointer -o "$work/nocfi" "$src/nocfi.c"; then
  check nocfi "$work/nocfi" 30000000
  for pair in "spin_sub middle" "spin_fp caller"; do
    set -- $pair
    awk -v leaf="$1" -v up="$2" '
      /cpu-clock:u:/ {n=0; next}
      /^\t/ {n++; sym=$2; sub(/\+0x.*/, "", sym); if (n == 1) l=sym; if (n == 2 && l == leaf && sym == up) found=1}
      END {exit !found}' "$work/nocfi.got" || fail "nocfi: no sample of $1 called from $2"
  done
  # perf's wrong slot held a stack address (its walk ends at a [stack]
  # frame) and 0 (its pc 0 - 1 frame): both seen, both matched above
  grep -q '(\[stack\])$' "$work/nocfi.want" || fail "nocfi: perf script shows no [stack] frame"
  grep -q '[[:space:]]ffffffffffffffff \[unknown\]' "$work/nocfi.want" || fail "nocfi: perf script shows no ffffffffffffffff frame"
fi
# a CFA kept in rbx (ld.so's _dl_runtime_resolve): rbx comes from the
# sampled registers through spin_leaf, which leaves it alone
if [ "$(uname -m)" = x86_64 ] && cc -g -O2 -fomit-frame-pointer -o "$work/rbxcfa" "$src/rbxcfa.c"; then
  check rbxcfa "$work/rbxcfa" 150000000
  awk '/cpu-clock:u:/ {s=""; next}
    /^\t/ {sym=$2; sub(/\+0x.*/, "", sym); s = s (s == "" ? "" : ";") sym; next}
    /^$/ { if (index(s, "spin_leaf;realign;outer;main")) found=1; s="" }
    END {exit !found}' "$work/rbxcfa.got" || fail "rbxcfa: no sample with the chain main -> outer -> realign -> spin_leaf"
fi
if [ -x /usr/bin/python3 ]; then
  # time.time() spends its time in the [vdso] (unwound through perf's
  # copy under ~/.debug/[vdso]) and libc's clock_gettime
  check python3 /usr/bin/python3 -c '
import json, time
def f(n):
    return sum(i * i for i in range(n))
for k in range(20):
    f(100000); json.dumps(list(range(20000)))
    for i in range(20000): time.time()'
fi

if [ "$checked" -eq 0 ]; then echo "SKIP: no recording could be checked"; exit 77; fi
[ "$failed" -eq 0 ] || { echo "$failed failure(s)"; exit 1; }
echo "all $checked recordings identical"
