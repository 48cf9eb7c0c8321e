#!/usr/bin/env bash
# CTF: an explicit struct alignment (`struct name { ... } align(N);`) is
# kept wherever the struct is used: referenced by name as the event header
# (the big-endian older-LTTng case that stopped after 3 events), through a
# typealias and a typedef, as a field and nested in another aligned struct,
# as a variant option, as array and sequence elements, and a typedef'd one
# as the element of an array inside a variant. Hand-made TSDL + stream
# bytes (ctf_struct_align_gen.py); oracle: babeltrace2's text of each trace,
# compared byte for byte with tracekit's babeltrace style, and the event
# count of tracekit stats (the lean plans) with babeltrace2's line count.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}"
export TZ=UTC LC_ALL=C
command -v babeltrace2 >/dev/null || { echo "SKIP: babeltrace2 is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 "$TK_SOURCE_DIR/tests/oracle/ctf_struct_align_gen.py" "$work" > "$work/cases" || exit 1
fail=0; n=0
while read -r c; do
  t=$work/$c
  if ! babeltrace2 "$t" > "$t.bt" 2> "$t.bterr"; then
    echo "FAIL $c: babeltrace2 rejects the hand-made trace: $(grep -m1 ' E ' "$t.bterr")"; fail=1; continue
  fi
  [ -s "$t.bt" ] || { echo "FAIL $c: babeltrace2 prints no event"; fail=1; continue; }
  "$TK" print --format babeltrace "$t" > "$t.tk" 2> "$t.tkerr" ||
    { echo "FAIL $c: tracekit: $(head -2 "$t.tkerr")"; fail=1; continue; }
  cmp -s "$t.bt" "$t.tk" || { echo "FAIL $c: differs from babeltrace2:"; diff "$t.bt" "$t.tk" | head -6; fail=1; }
  events=$("$TK" stats "$t" 2>&1 | awk '/^events:/ {print $2}')
  [ "$events" = "$(wc -l < "$t.bt")" ] || { echo "FAIL $c: stats counts '$events' events, babeltrace2 prints $(wc -l < "$t.bt")"; fail=1; }
  n=$((n+1))
done < "$work/cases"
[ "$n" -ge 7 ] || { echo "FAIL: only $n cases ran"; fail=1; }
[ $fail -eq 0 ] && echo "struct alignment kept: $n hand-made traces read as babeltrace2 reads them"
exit $fail
