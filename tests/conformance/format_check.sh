#!/usr/bin/env bash
# Every C file of the project follows .clang-format (run `make format`).
set -u
: "${TK_SOURCE_DIR:?}"
cd "$TK_SOURCE_DIR" || exit 1
command -v clang-format >/dev/null || { echo "SKIP: clang-format is not installed"; exit 77; }
# (a worktree's .git is a file: ask git itself)
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo "SKIP: not a git checkout"; exit 77; }
bad=0
for f in $(git ls-files '*.c' '*.h'); do
  if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
    echo "not formatted: $f"; bad=$((bad+1))
  fi
done
echo "$bad files not formatted"
[ $bad -eq 0 ]
