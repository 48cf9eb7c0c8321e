#!/usr/bin/env bash
# Oracle: the running kernel's symbols taken from perf's build-id cache
# copy of kallsyms (src/symbols/kallsyms_core.h) change no output. On a
# -g recording made here (kernel and user frames), `tracekit print
# --format perf-script` prints exactly what `perf script` prints with
# (a) a copy of /proc/kallsyms in $HOME/.debug (the core table is
#     used: its cache file is written), also with the upper half of the
#     core sent to /proc/kallsyms (the fall-back path on real frames),
#     cold and warm persistent cache;
# (b) the copy switched off (TRACEKIT_NO_KALLSYMS_COPY=1: not used);
# (c) tampered copies, each refused (no core cache file) and the output
#     still perf's: _text moved, cut in the middle of a line, cut at a
#     line end inside the core (no [module] line after it), emptied, and
#     a directory in its place.
# The copy is made by the test (a CI machine may have none), in its own
# HOME (perf 6.1 reads $HOME/.debug; PERF_BUILDID_DIR is only an output of
# perf for its scripts); the symbol cache lives in the test's directory.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}"
if ! command -v perf >/dev/null; then echo "SKIP: perf is not installed"; exit 77; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME=$work/home XDG_CACHE_HOME=$work/xdg
mkdir -p "$HOME"
unset PERF_BUILDID_DIR TRACEKIT_NO_SYMCACHE TRACEKIT_NO_KALLSYMS_COPY TRACEKIT_KALLSYMS_CORE_TEST
id=$(perf buildid-list -k 2>/dev/null)
if [ -z "$id" ]; then echo "SKIP: the running kernel's build id is not readable"; exit 77; fi
if ! head -c 4096 /proc/kallsyms | awk '$3 == "_text" && $1 !~ /^0+$/ { f = 1 } END { exit !f }'; then
  echo "SKIP: /proc/kallsyms hides addresses or has no _text near its start"; exit 77
fi
data=$work/perf.data
# perf record fills $HOME/.debug (images, and its own kallsyms copy,
# replaced below by the test's)
if ! perf record -q -g -o "$data" -- sh -c 'for i in 1 2 3 4; do ls -lR /usr/lib/x86_64-linux-gnu /usr/bin >/dev/null 2>&1; done' \
    >/dev/null 2>"$work/rec.err" || [ ! -s "$data" ]; then
  echo "SKIP: perf cannot record here: $(head -1 "$work/rec.err")"; exit 77
fi
perf script -i "$data" >"$work/want" 2>/dev/null
if ! grep -q '(\[kernel.kallsyms\])' "$work/want"; then echo "SKIP: no kernel frames recorded"; exit 77; fi
dir=$HOME/.debug/[kernel.kallsyms]/$id
rm -rf "$dir"; mkdir -p "$dir"
cat /proc/kallsyms >"$work/kallsyms"
# the lines after the core (modules, bpf, trampolines) are never read from
# the copy, but one must be there; a machine with none gets one
grep -q $'\t\[' "$work/kallsyms" || printf 'ffffffffc0000000 t tk_test_fake\t[tk_test]\n' >>"$work/kallsyms"
failed=0
cache=$XDG_CACHE_HOME/tracekit
run() { # NAME WANT_CORE(yes|no|any) [ENV...]: one run compared with perf script
  local name=$1 core=$2; shift 2
  if ! env "$@" "$TK" print --format perf-script "$data" >"$work/got.$name" 2>"$work/err.$name"; then
    echo "FAIL $name: exit status non-zero: $(head -2 "$work/err.$name")"; failed=$((failed+1)); return
  fi
  if ! cmp -s "$work/want" "$work/got.$name"; then
    echo "FAIL $name: output differs from perf script:"
    diff "$work/want" "$work/got.$name" | head -6; failed=$((failed+1)); return
  fi
  local used=no whole=no
  ls "$cache" 2>/dev/null | grep -q '^kallsyms-core-' && used=yes
  # the whole /proc/kallsyms table was loaded (and cached) too
  ls "$cache" 2>/dev/null | grep -q '^kallsyms-running-' && whole=yes
  if [ "$core" != any ] && [ "$core" != "$used" ]; then
    echo "FAIL $name: identical output, but the copy was $([ $used = yes ] || echo "not ")used"
    failed=$((failed+1)); return
  fi
  echo "ok $name: $(wc -l <"$work/want") lines identical to perf script (copy used: $used, /proc/kallsyms loaded: $whole)"
  if [ "${name#copy-half}" != "$name" ] && [ "$whole" = no ]; then
    echo "FAIL $name: the upper half of the core did not go to /proc/kallsyms"; failed=$((failed+1))
  fi
}
fresh() { rm -rf "$XDG_CACHE_HOME"; }

cp "$work/kallsyms" "$dir/kallsyms"
fresh; run copy-cold yes
run copy-warm yes
fresh; run copy-half yes TRACEKIT_KALLSYMS_CORE_TEST=half
run copy-half-warm yes TRACEKIT_KALLSYMS_CORE_TEST=half
fresh; run copy-one-thread yes TRACEKIT_THREADS=0
fresh; run copy-half-one-thread yes TRACEKIT_KALLSYMS_CORE_TEST=half TRACEKIT_THREADS=0
run copy-nocache any TRACEKIT_NO_SYMCACHE=1
fresh; run copy-off no TRACEKIT_NO_KALLSYMS_COPY=1
# tampered copies
line=$(grep -n ' _text$' "$work/kallsyms" | head -1 | cut -d: -f1)
awk -v l="$line" 'NR == l { $1 = sprintf("%s", "ffffffff8badf000") } { print }' "$work/kallsyms" >"$dir/kallsyms"
fresh; run moved-text no
core=$(grep -c -v $'\t\[' "$work/kallsyms")
head -c $(( $(stat -c %s "$work/kallsyms") / 2 + 7 )) "$work/kallsyms" >"$dir/kallsyms"
fresh; run cut-mid-line no
head -n $(( core / 2 )) "$work/kallsyms" >"$dir/kallsyms"
fresh; run cut-at-line-end no
: >"$dir/kallsyms"
fresh; run empty no
rm -f "$dir/kallsyms"; mkdir "$dir/kallsyms"
fresh; run directory no
rmdir "$dir/kallsyms"
fresh; run absent no
[ "$failed" -eq 0 ] || { echo "$failed failure(s)"; exit 1; }
echo "kallsyms copy used, off and tampered: output identical to perf script"
