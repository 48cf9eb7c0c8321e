#!/usr/bin/env bash
# CLI golden test: runs the command in CASE.cmd (one line; $TK is the
# tracekit binary, $TK_TESTDATA the shared test data) and compares stdout,
# stderr and the exit status with CASE.out, CASE.err and CASE.rc.
# TK_REGEN=1 rewrites the expected files on purpose instead of comparing.
set -u
case_file=$1
base=${case_file%.cmd}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmd=$(cat "$case_file")
( cd "$TK_SOURCE_DIR" && eval "$cmd" ) >"$tmp/out" 2>"$tmp/err"
echo $? >"$tmp/rc"
# The binary's path differs between builds; keep expected output stable.
sed -i "s#$TK#tracekit#g; s#$TK_TESTDATA#TESTDATA#g" "$tmp/out" "$tmp/err"
if [ "${TK_REGEN:-0}" = 1 ]; then
  cp "$tmp/out" "$base.out"; cp "$tmp/err" "$base.err"; cp "$tmp/rc" "$base.rc"
  echo "regenerated $base"
  exit 0
fi
rc=0
for part in out err rc; do
  if ! diff -u "$base.$part" "$tmp/$part"; then
    echo "golden mismatch in $part for: $cmd" >&2
    rc=1
  fi
done
exit $rc
