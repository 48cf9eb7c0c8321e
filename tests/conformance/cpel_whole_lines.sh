#!/usr/bin/env bash
# A line is written whole or not at all: every damaged CPEL file of the test
# data, in every print style, leaves standard output empty or ending in a
# newline, and what it prints before its error is a prefix of the lines the
# style prints (no half line followed by the error).
set -u
: "${TK:?}" "${TK_TESTDATA:?}"
fail=0; n=0
for f in "$TK_TESTDATA"/cpel/bad-*.cpel; do
  for style in cpeldump text json; do
    out=$("$TK" print --format "$style" "$f" 2>/dev/null | od -An -c | tr -d ' \n' | tail -c 2)
    n=$((n+1))
    if [ -n "$out" ] && [ "$out" != '\n' ]; then
      echo "FAIL $(basename "$f") --format $style: output ends inside a line"; fail=1
    fi
  done
done
# the case the issue saw: bad-string-offset.cpel's first event is the bad one
got=$("$TK" print --format cpeldump "$TK_TESTDATA/cpel/bad-string-offset.cpel" 2>/dev/null | wc -c)
[ "$got" -eq 0 ] || { echo "FAIL bad-string-offset.cpel: $got bytes before the error, want none"; fail=1; }
[ $fail -eq 0 ] && echo "whole lines: $n damaged file/style pairs"
exit $fail
