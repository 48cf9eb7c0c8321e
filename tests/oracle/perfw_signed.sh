#!/usr/bin/env bash
# CTF -> perf.data keeps the sign of signed integers: `perf script` of the
# converted barectf traces shows the values babeltrace2 shows for the CTF
# (-128, not 128; -1 of a 1-bit field, not 255), and a signed enum whose
# label maps a negative value prints that label. The enum traces are the
# barectf basic_enum_senum* ones with a negative label added to their
# metadata ("NEG" = the value their stream holds).
set -u
: "${TK:?}" "${TK_TESTDATA:?}"
command -v perf >/dev/null || { echo "SKIP: perf is not installed"; exit 77; }
command -v babeltrace2 >/dev/null || { echo "SKIP: babeltrace2 is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0; checked=0
B="$TK_TESTDATA/ctf/barectf"

# perf script's "tracekit:ev: a=1 b=-2" -> "a=1 b=-2"
perf_fields() {
  rm -f "$work/x.data"
  "$TK" convert "$1" --to perf -o "$work/x.data" 2>"$work/err" || { echo "convert failed: $(head -1 "$work/err")"; return; }
  perf script -i "$work/x.data" 2>/dev/null | sed 's/.*tracekit:[^:]*: //'
}

# same NAME WANT GOT
same() {
  checked=$((checked+1))
  if [ "$2" = "$3" ]; then
    echo "ok $1: $3"
  else
    echo "FAIL $1: babeltrace2 says '$2', perf script of the conversion '$3'"; failed=$((failed+1))
  fi
}

for t in basic_int_sint8 basic_int_sint16 basic_int_sint32 basic_int_sint64 \
         basic_int_sint-bit-fields basic_int_sint-bit-fields-wrap basic_int_uint8; do
  [ -d "$B/$t" ] || continue
  # "ev: { i1 = -1, i3 = -3 }" -> "i1=-1 i3=-3"
  want=$(babeltrace2 "$B/$t" | sed 's/^[^{]*{ //; s/ }$//; s/ = /=/g; s/, / /g')
  same "$t" "$want" "$(perf_fields "$B/$t")"
done

for bits in 8 16 32 64; do
  src="$B/basic_enum_senum$bits"
  [ -d "$src" ] || continue
  # the value the stream holds: "ev: { e = ( <unknown> : container = -128 ) }"
  v=$(babeltrace2 "$src" | sed -n 's/.*container = \(-[0-9]*\).*/\1/p')
  [ -n "$v" ] || { echo "FAIL senum$bits: no negative value in the trace"; failed=$((failed+1)); continue; }
  d="$work/neg$bits"
  mkdir -p "$d" && cp "$src/stream" "$d/" &&
    sed "s/\"A\" = 0,/\"A\" = 0, \"NEG\" = $v,/" "$src/metadata" >"$d/metadata"
  want=$(babeltrace2 "$d" | sed -n 's/.*e = ( "\([A-Z]*\)" : container.*/e=\1/p')
  same "senum$bits with NEG = $v" "$want" "$(perf_fields "$d")"
done
[ "$checked" -gt 0 ] || { echo "SKIP: no barectf traces"; exit 77; }
[ "$failed" -eq 0 ] || exit 1
