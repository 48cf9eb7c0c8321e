#!/usr/bin/env bash
# Folder rules (docs/ARCHITECTURE.md, "Folder rules"): no cycle between
# folders or files, no use of a higher layer or of a peer, in the tree's
# #include lines and in the symbols the built objects use. First checks
# that the checker itself fails on a planted upward include, a planted
# file cycle behind a shared header and a folder with no layer.
set -u
: "${TK_SOURCE_DIR:?}" "${TK_BUILD_DIR:?}"
check="$TK_SOURCE_DIR/scripts/check_layers.py"
command -v nm >/dev/null || { echo "nm not found"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mk() { mkdir -p "$(dirname "$tmp/$1")"; printf '%s\n' "$2" >"$tmp/$1"; }
mk docs/ARCHITECTURE.md $'```layers\nsrc/low\nsrc/high\n```'
mk src/low/a.h '/* a */'
mk src/high/b.h '/* b */'
mk src/low/a.c '#include "high/b.h"'
out=$(/usr/bin/python3 "$check" --root "$tmp" 2>&1)
grep -q 'upward: src/low/a.c' <<<"$out" || { echo "FAIL: planted upward include not found:"; echo "$out"; exit 1; }
# a file cycle hidden behind a shared header: x.c calls y.c, y.c calls
# x.c, both through common.h (only the objects' symbols show it)
rm -rf "$tmp/src"
mk src/low/common.h $'void fx(void);\nvoid fy(void);'
mk src/low/x.c $'#include "common.h"\nvoid fx(void) { fy(); }'
mk src/low/y.c $'#include "common.h"\nvoid fy(void) { fx(); }'
mkdir -p "$tmp/build/o.dir/src/low"
for f in x y; do
  cc -c -o "$tmp/build/o.dir/src/low/$f.c.o" "$tmp/src/low/$f.c" || exit 1
done
out=$(/usr/bin/python3 "$check" --root "$tmp" --build "$tmp/build" 2>&1)
grep -q 'file cycle: src/low/x <-> src/low/y' <<<"$out" || { echo "FAIL: planted file cycle not found:"; echo "$out"; exit 1; }
mk src/other/z.c '/* z */'
out=$(/usr/bin/python3 "$check" --root "$tmp" 2>&1)
grep -q 'folder src/other has no layer' <<<"$out" || { echo "FAIL: folder without a layer not found:"; echo "$out"; exit 1; }

# The tree itself.
/usr/bin/python3 "$check" --root "$TK_SOURCE_DIR" --build "$TK_BUILD_DIR"
