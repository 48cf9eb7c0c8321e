#!/usr/bin/env bash
# Oracle (issue 19): the second core changes no byte. On a -g recording
# made here of a workload (kernel and user frames, several images),
# `print --format perf-script` and `print --format json` with background
# threads (the kernel's symbols loaded and the cache files written off the
# main thread) and without them (TRACEKIT_THREADS=0) print the same bytes,
# cold (empty symbol cache) and warm, and the perf-script text is exactly
# `perf script`'s, also with every kernel frame deferred to the end (and
# the JSON the same as without threads); the cold runs leave the same cache files, byte for
# byte, with no temporary left behind. The cache and perf's build-id cache
# live in the test's own directory.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}"
if ! command -v perf >/dev/null; then echo "SKIP: perf is not installed"; exit 77; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME=$work/home
mkdir -p "$HOME"
unset TRACEKIT_NO_SYMCACHE
cc -O1 -g -fno-omit-frame-pointer -o "$work/workload" "$TK_SOURCE_DIR/examples/workload.c" || exit 1
data=$work/perf.data
if ! perf record -q -g -o "$data" -- sh -c "'$work/workload' 2 >/dev/null; ls -lR /usr/lib >/dev/null 2>&1" \
    >/dev/null 2>"$work/rec.err" || [ ! -s "$data" ]; then
  echo "SKIP: perf cannot record here: $(head -1 "$work/rec.err")"; exit 77
fi
perf script -i "$data" >"$work/want" 2>/dev/null
if [ ! -s "$work/want" ]; then echo "SKIP: perf script printed nothing"; exit 77; fi
failed=0
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
for threads in 1 0; do
  export XDG_CACHE_HOME=$work/xdg$threads
  for pass in cold warm; do
    for fmt in perf-script json; do
      out=$work/$fmt.$pass.$threads
      TRACEKIT_THREADS=$threads "$TK" print --format $fmt "$data" >"$out" 2>"$out.err" ||
        fail "$fmt $pass threads=$threads: exit status non-zero: $(head -2 "$out.err")"
    done
  done
done
for pass in cold warm; do
  for fmt in perf-script json; do
    if cmp -s "$work/$fmt.$pass.1" "$work/$fmt.$pass.0"; then
      echo "ok $fmt $pass: threads on and off print the same $(wc -c <"$work/$fmt.$pass.1") bytes"
    else
      fail "$fmt $pass: threads on and off differ:"
      cmp "$work/$fmt.$pass.1" "$work/$fmt.$pass.0" | head -2
    fi
  done
  cmp -s "$work/want" "$work/perf-script.$pass.1" && echo "ok perf-script $pass: identical to perf script" ||
    fail "perf-script $pass: differs from perf script"
done
# the cold runs wrote the same files (the warm ones rewrote nothing). A
# file's key holds its inputs' stat identity: perf record elsewhere on the
# machine hard-links images into its build-id cache, which changes their
# ctime, and then the key (rightly) differs: such files are not compared.
same=0 skipped=0
for f in "$work/xdg1/tracekit"/*; do
  b=$(basename "$f"); g=$work/xdg0/tracekit/$b
  if [ ! -f "$g" ]; then fail "cache file $b written with threads, not without"; continue; fi
  if cmp -s "$f" "$g"; then same=$((same + 1)); continue; fi
  if ! cmp -s <(strings "$f" | grep -E '^(candidate|file) ') <(strings "$g" | grep -E '^(candidate|file) '); then
    skipped=$((skipped + 1)); continue
  fi
  fail "cache file $b differs with threads on and off (same key)"
done
[ "$(ls "$work/xdg0/tracekit" | wc -l)" -eq "$(ls "$work/xdg1/tracekit" | wc -l)" ] ||
  fail "threads on and off wrote different numbers of cache files"
echo "ok cache files: $same identical with threads on and off ($skipped not compared: inputs changed between the runs)"
# Kernel frames deferred while the kernel's table loads (perf_script_lines.h):
# TRACEKIT_KERNEL_DEFER=always holds every kernel frame back until the end
# (a cold cache starts the background load), whatever the machine's speed;
# the bytes must not change.
export XDG_CACHE_HOME=$work/xdg-defer
TRACEKIT_KERNEL_DEFER=always "$TK" print --format perf-script "$data" >"$work/defer.out" 2>"$work/defer.err" ||
  fail "perf-script, kernel frames deferred: exit status non-zero: $(head -2 "$work/defer.err")"
cmp -s "$work/want" "$work/defer.out" && echo "ok perf-script, kernel frames deferred: identical to perf script" ||
  fail "perf-script, kernel frames deferred: differs from perf script"
# the deferral happened: the kernel's own MMAP (the first record of a -a
# recording) once ended it before the first kernel frame
grep -q 'kernel frames were deferred' "$work/defer.err" ||
  fail "perf-script: no kernel frame was deferred ($(head -1 "$work/defer.err"))"
rm -rf "$XDG_CACHE_HOME"
TRACEKIT_KERNEL_DEFER=always "$TK" print --format json "$data" >"$work/defer.json" 2>"$work/defer.err" ||
  fail "json, kernel frames deferred: exit status non-zero: $(head -2 "$work/defer.err")"
cmp -s "$work/json.cold.0" "$work/defer.json" && echo "ok json, kernel frames deferred: identical to json without threads" ||
  fail "json, kernel frames deferred: differs from json without threads"
grep -q 'kernel frames were deferred' "$work/defer.err" ||
  fail "json: no kernel frame was deferred ($(head -1 "$work/defer.err"))"
if ls "$work/xdg1/tracekit" 2>/dev/null | grep -q '\.tmp\.'; then
  fail "temporary files left in the cache: $(ls "$work/xdg1/tracekit" | grep '\.tmp\.' | head -2)"
fi
[ "$failed" -eq 0 ]
