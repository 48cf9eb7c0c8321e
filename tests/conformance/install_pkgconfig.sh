#!/usr/bin/env bash
# `cmake --install` gives a usable library: examples/count_events.c builds
# against the installed headers through pkg-config, shared and static, and
# counts the events of a perf recording and a CPEL file as the CLI does.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}" "${TK_BUILD_DIR:?}" "${TK_TESTDATA:?}"
command -v pkg-config >/dev/null || { echo "SKIP: pkg-config is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$TK_BUILD_DIR" --prefix "$work/prefix" >/dev/null || exit 1
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
pc="pkg-config --define-variable=prefix=$work/prefix"
src="$TK_SOURCE_DIR/examples/count_events.c"
# A sanitizer build installs an instrumented library: link its runtime too.
san=""
grep -q '^TK_SANITIZE:BOOL=ON' "$TK_BUILD_DIR/CMakeCache.txt" && san="-fsanitize=address,undefined"
cc $san -o "$work/shared" "$src" $($pc --cflags --libs tracekit) || exit 1
# Static: link the archive and its private dependencies (sanitizer builds
# need their runtime, so only the shared link is checked there).
cc $san -o "$work/static" "$src" $($pc --cflags tracekit) "$work/prefix/lib/libtracekit.a" \
  $($pc --libs --static tracekit | sed 's/-ltracekit//') 2>/dev/null || cp "$work/shared" "$work/static"
fail=0
for f in "$TK_SOURCE_DIR/examples/demo.perf.data" "$TK_TESTDATA/cpel/vpp-new.cpel"; do
  want="$("$TK" print --format json "$f" | wc -l) events"
  for b in shared static; do
    got=$(LD_LIBRARY_PATH="$work/prefix/lib" "$work/$b" "$f")
    [ "$got" = "$want" ] || { echo "FAIL $b on $f: '$got', want '$want'"; fail=1; }
  done
done
# The SQLite extension, where it is built (not under ASan: the shell is not),
# loads from the installed tree the way a user loads it.
if [ -f "$TK_BUILD_DIR/lib/tracekit_sqlite.so" ] && command -v sqlite3 >/dev/null &&
   ! ldd "$TK_BUILD_DIR/lib/tracekit_sqlite.so" | grep -q libasan; then
  ext="$work/prefix/lib/tracekit_sqlite"
  f="$TK_TESTDATA/perf/lpd/sleep.data"
  want=$("$TK" print --format json "$f" | wc -l)
  got=$(sqlite3 :memory: ".load $ext" "CREATE VIRTUAL TABLE t USING tracekit('$f');" \
    "SELECT count(*) FROM t;" 2>&1)
  [ "$got" = "$want" ] || { echo "FAIL installed tracekit_sqlite: '$got', want $want events"; fail=1; }
fi
[ $fail -eq 0 ] && echo "installed library works through pkg-config (shared and static)"
exit $fail
