#!/usr/bin/env bash
# Oracle: the persistent symbol cache changes no output. On a -g
# recording made here of a workload, sh and ls -lR (kernel and user
# frames, several images; not -a, so that other processes on the machine
# do not bring their own differences with perf into this test),
# `tracekit print --format perf-script` prints exactly what `perf script`
# prints with the cache cold (empty), warm (second run: nothing rewritten),
# damaged (each file truncated, a byte flipped, emptied, or replaced by
# garbage: ignored and rewritten to the same bytes, never fatal), and off
# (TRACEKIT_NO_SYMCACHE=1: nothing written), and with four concurrent
# cold runs (each file left whole and then used). The cache lives in the test's
# own directory (XDG_CACHE_HOME), never the user's.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}"
if ! command -v perf >/dev/null; then echo "SKIP: perf is not installed"; exit 77; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME=$work/xdg
# perf's build-id cache (~/.debug) private to the test too: perf record
# runs elsewhere on the machine add to the shared one, and a changed input
# rightly changes a cache file, which would look like a fault here
export HOME=$work/home
mkdir -p "$HOME"
unset TRACEKIT_NO_SYMCACHE
cache=$XDG_CACHE_HOME/tracekit
cc -O1 -g -fno-omit-frame-pointer -o "$work/workload" "$TK_SOURCE_DIR/examples/workload.c" || exit 1
data=$work/perf.data
if ! perf record -q -g -o "$data" -- sh -c "'$work/workload' 2 >/dev/null; ls -lR /usr/lib >/dev/null 2>&1" \
    >/dev/null 2>"$work/rec.err" || [ ! -s "$data" ]; then
  echo "SKIP: perf cannot record here: $(head -1 "$work/rec.err")"; exit 77
fi
perf script -i "$data" >"$work/want" 2>/dev/null
if [ ! -s "$work/want" ]; then echo "SKIP: perf script printed nothing"; exit 77; fi
failed=0
run() { # NAME [ENV...]: one run compared with perf script
  local name=$1; shift
  if ! env "$@" "$TK" print --format perf-script "$data" >"$work/got.$name" 2>"$work/err.$name"; then
    echo "FAIL $name: exit status non-zero: $(head -2 "$work/err.$name")"; failed=$((failed+1)); return
  fi
  if cmp -s "$work/want" "$work/got.$name"; then
    echo "ok $name: $(wc -l <"$work/want") lines identical to perf script"
  else
    echo "FAIL $name: output differs from perf script:"
    diff "$work/want" "$work/got.$name" | head -6; failed=$((failed+1))
  fi
}
snapshot() { (cd "$cache" 2>/dev/null && for f in *; do [ -f "$f" ] && echo "$f $(cksum <"$f")"; done) | LC_ALL=C sort; }

run cold
n=$(ls "$cache" 2>/dev/null | wc -l)
if [ "$n" -eq 0 ]; then
  echo "note: no cache file written (tracekit built without a build id?): the other cases compare output only"
fi
if grep -q '(\[kernel.kallsyms\])' "$work/want"; then
  # kallsyms-core-: the kernel's lines came from perf's copy in the test's
  # $HOME/.debug (src/symbols/kallsyms_core.h), -running-: /proc/kallsyms
  if ls "$cache" 2>/dev/null | grep -q '^kallsyms-\(running\|core\)-'; then
    echo "ok cold: kernel frames, the kernel's symbols cached ($(ls "$cache" | grep -o '^kallsyms-[a-z]*' | head -1))"
  else
    echo "note: kernel frames but no kallsyms cache file (no kernel build id or boot id readable here?)"
  fi
fi
snapshot >"$work/snap.cold"
ls -l --time-style=+%s.%N "$cache" >"$work/ls.cold" 2>/dev/null
run warm
snapshot >"$work/snap.warm"
ls -l --time-style=+%s.%N "$cache" >"$work/ls.warm" 2>/dev/null
if ! cmp -s "$work/ls.cold" "$work/ls.warm"; then
  echo "FAIL warm: the warm run rewrote cache files"; diff "$work/ls.cold" "$work/ls.warm" | head -4; failed=$((failed+1))
fi
if [ "$n" -gt 0 ]; then
  # damage every file, four ways in turn
  i=0
  for f in "$cache"/*; do
    size=$(stat -c %s "$f")
    case $((i % 4)) in
      0) truncate -s $((size / 2)) "$f" ;;
      1) printf '\x5a' | dd of="$f" bs=1 seek=$((size / 3)) conv=notrunc status=none ;;
      2) : >"$f" ;;
      3) head -c "$size" /dev/urandom >"$f" ;;
    esac
    i=$((i+1))
  done
  run damaged
  snapshot >"$work/snap.damaged"
  if ! cmp -s "$work/snap.cold" "$work/snap.damaged"; then
    echo "FAIL damaged: the damaged files were not rewritten as the cold run wrote them"
    diff "$work/snap.cold" "$work/snap.damaged" | head -6; failed=$((failed+1))
  else
    echo "ok damaged: all $n files rewritten, byte-identical to the cold run's"
  fi
  run rewarm
fi
rm -rf "$XDG_CACHE_HOME"
run off TRACEKIT_NO_SYMCACHE=1
if [ -e "$cache" ]; then echo "FAIL off: TRACEKIT_NO_SYMCACHE=1 still wrote $cache"; failed=$((failed+1)); fi
# concurrent writers: four cold runs at once on an empty cache, then a
# warm run that must find every file whole (nothing rewritten, no temps)
rm -rf "$XDG_CACHE_HOME"
for k in 1 2 3 4; do
  "$TK" print --format perf-script "$data" >"$work/got.conc$k" 2>"$work/err.conc$k" &
done
wait
for k in 1 2 3 4; do
  if ! cmp -s "$work/want" "$work/got.conc$k"; then
    echo "FAIL concurrent run $k: output differs"; failed=$((failed+1))
  fi
done
if [ "$n" -gt 0 ]; then
  snapshot >"$work/snap.conc"
  ls -l --time-style=+%s.%N "$cache" >"$work/ls.conc1"
  run after-concurrent
  ls -l --time-style=+%s.%N "$cache" >"$work/ls.conc2"
  if ! cmp -s "$work/snap.cold" "$work/snap.conc"; then
    echo "FAIL concurrent: the cache the concurrent runs left is not the cold run's:"
    diff "$work/snap.cold" "$work/snap.conc" | head -6; failed=$((failed+1))
  elif ! cmp -s "$work/ls.conc1" "$work/ls.conc2"; then
    echo "FAIL concurrent: the next run rewrote files the concurrent runs left:"
    diff "$work/ls.conc1" "$work/ls.conc2" | head -6; failed=$((failed+1))
  elif ls -A "$cache" | grep -q '\.tmp\.'; then
    echo "FAIL concurrent: temporary files left in $cache"; failed=$((failed+1))
  else
    echo "ok concurrent: 4 writers at once left $n whole files, used as they are"
  fi
fi
[ "$failed" -eq 0 ] || { echo "$failed failure(s)"; exit 1; }
echo "cache cold, warm, damaged, off and concurrent: output identical"
