#!/usr/bin/env bash
# The man page stays in sync with --help: every command and every long
# option that --help lists is documented in man/tracekit.1, and back.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}"
man="$TK_SOURCE_DIR/man/tracekit.1"
help=$("$TK" --help) || exit 1
fail=0
# Long options, as the man page escapes dashes (\-\-name).
for opt in $(grep -o -- '--[a-z][a-z-]*' <<<"$help" | sort -u); do
  esc=$(sed 's/-/\\\\-/g' <<<"$opt")
  grep -q -- "$esc" "$man" || { echo "FAIL: $opt is in --help but not in the man page"; fail=1; }
done
for opt in $(grep -o -- '\\-\\-[a-z][a-z\\-]*' "$man" | sed 's/\\//g' | sort -u); do
  grep -q -- "$opt" <<<"$help" || { echo "FAIL: $opt is in the man page but not in --help"; fail=1; }
done
for cmd in $(awk '/^commands:/ {on=1; next} on && /^$/ {exit} on {print $1}' <<<"$help"); do
  grep -q "^\.B $cmd" "$man" || { echo "FAIL: command $cmd missing from the man page"; fail=1; }
done
[ $fail -eq 0 ] && echo "man page in sync with --help"
exit $fail
