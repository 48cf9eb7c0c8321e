#!/usr/bin/env bash
# build/tracekit-uninstalled.pc: examples/count_events.c builds against the
# build tree (no install) through pkg-config, by its own name and as
# `tracekit` (pkg-config prefers NAME-uninstalled.pc), and runs from there
# (rpath). Its error output: no offset for an error that has none
# (TK_NO_OFFSET: a file that cannot be opened), the offset otherwise.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}" "${TK_BUILD_DIR:?}" "${TK_TESTDATA:?}"
command -v pkg-config >/dev/null || { echo "SKIP: pkg-config is not installed"; exit 77; }
pc_file=$TK_BUILD_DIR/tracekit-uninstalled.pc
[ -f "$pc_file" ] || { echo "FAIL: $pc_file was not written"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PKG_CONFIG_PATH=$TK_BUILD_DIR
unset PKG_CONFIG_DISABLE_UNINSTALLED
san=""
grep -q '^TK_SANITIZE:BOOL=ON' "$TK_BUILD_DIR/CMakeCache.txt" && san="-fsanitize=address,undefined"
fail=0
bad() { echo "FAIL $*"; fail=1; }
[ "$(pkg-config --variable=includedir tracekit)" = "$TK_SOURCE_DIR/include" ] ||
  bad "pkg-config tracekit does not find the uninstalled file: includedir=$(pkg-config --variable=includedir tracekit)"
src=$TK_SOURCE_DIR/examples/count_events.c
for name in tracekit-uninstalled tracekit; do
  cc $san -Wall -Werror -o "$work/$name" "$src" $(pkg-config --cflags --libs "$name") ||
    { bad "$name: the example does not build"; continue; }
  for f in "$TK_SOURCE_DIR/examples/demo.perf.data" "$TK_TESTDATA/cpel/vpp-new.cpel"; do
    want="$("$TK" print --format json "$f" | wc -l) events"
    got=$(env -u LD_LIBRARY_PATH "$work/$name" "$f")
    [ "$got" = "$want" ] || bad "$name on $f: '$got', want '$want'"
  done
  # the library it runs with is the build tree's
  ldd "$work/$name" 2>/dev/null | grep -q "$TK_BUILD_DIR/lib/libtracekit.so" ||
    bad "$name: not linked to $TK_BUILD_DIR/lib/libtracekit.so: $(ldd "$work/$name" | grep tracekit)"
done
# errors: no offset when there is none; the offset when there is one
exe=$work/tracekit
if [ -x "$exe" ]; then
  "$exe" "$work/absent.data" 2>"$work/absent.err" && bad "absent file: exit 0"
  grep -q "^$work/absent.data: cannot open" "$work/absent.err" || bad "absent file: $(cat "$work/absent.err")"
  grep -q "offset" "$work/absent.err" && bad "absent file: an offset is printed: $(cat "$work/absent.err")"
  "$exe" "$TK_TESTDATA/cpel/bad-truncated.cpel" 2>"$work/bad.err" && bad "bad-truncated.cpel: exit 0"
  grep -q "offset 0x" "$work/bad.err" || bad "bad-truncated.cpel: no offset: $(cat "$work/bad.err")"
  grep -q "0xffffffffffffffff" "$work/absent.err" "$work/bad.err" && bad "TK_NO_OFFSET printed as a number"
fi
[ $fail -eq 0 ] && echo "uninstalled build tree usable through pkg-config"
exit $fail
