#!/usr/bin/env bash
# `print ... | head` stops where the reader left (issue 19): the first
# failed write of the output ends the run, quietly, with exit 0, as perf
# script and babeltrace2 end on SIGPIPE; it does not format the rest of
# the input into a closed pipe. Each input here is damaged near its end,
# so a run that went on would end with the damage's error (exit 1); each
# prints more than 1 MiB (the output buffer) before it. Covered: the
# generic model printer (json, text) on a CTF trace, CPEL's cpeldump
# text, and DCPI's listing and dcpicat text of a profile database. (perf.data: oracle/perf_lanes; CTF's babeltrace text:
# oracle/ctf_lanes.)
set -u
: "${TK:?}" "${TK_TESTDATA:?}" "${TK_SOURCE_DIR:?}"
export TZ=UTC LC_ALL=C
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
fail() { echo "FAIL $*"; failed=$((failed + 1)); }

# early INPUT ARGS...: to a file, the damage's error after > 1.5 MiB;
# into head -c 1, exit 0 and no message
early() {
  local input=$1; shift
  "$TK" print "$@" "$input" >"$work/full" 2>"$work/full.err"
  local rc=$? bytes
  bytes=$(stat -c %s "$work/full")
  if [ "$rc" != 1 ] || ! grep -q "offset 0x" "$work/full.err"; then
    fail "$* $(basename "$input") to a file: exit $rc, want 1 with the damage's error: $(head -1 "$work/full.err")"
    return
  fi
  [ "$bytes" -gt $((1536 * 1024)) ] || { fail "$* $(basename "$input"): only $bytes bytes before the error"; return; }
  "$TK" print "$@" "$input" 2>"$work/head.err" | head -c 1 >/dev/null
  local got=${PIPESTATUS[0]}
  if [ "$got" != 0 ] || [ -s "$work/head.err" ]; then
    fail "$* $(basename "$input") | head -c 1: exit $got, want 0 (stopped at the closed pipe): $(head -1 "$work/head.err")"
  else
    echo "ok $* $(basename "$input") | head -c 1: stopped (a full run: $bytes bytes, then the error)"
  fi
}

# a CTF trace with an event id no class has in its last stream file
cp -r "$TK_TESTDATA/ctf/babeltrace/succeed/lttng-tracefile-rotation/kernel" "$work/rot"
chmod -R u+w "$work/rot"
head -c 64 /dev/zero | tr '\0' '\377' |
  dd of="$work/rot/mychan_0_2" bs=1 seek=12000 conv=notrunc status=none
early "$work/rot" --format json
early "$work/rot" --format text

# a CPEL file of 100 000 events whose string datum near the end lies
# outside its string table
python3 "$TK_SOURCE_DIR/bench/cpel_gen.py" "$work/big.cpel" 100000
python3 - "$work/big.cpel" <<'EOF'
import struct, sys
path, n = sys.argv[1], 100000
b = bytearray(open(path, 'rb').read())
# cpel_gen: the events end the file, 20 bytes each (time hi, lo, track,
# code, datum); codes with code % 3 == 2 take a string datum
i = next(i for i in range(n - 1, 0, -1) if ((i * 13) % 16) % 3 == 2)
struct.pack_into('>I', b, len(b) - 20 * (n - i) + 16, 0xFFFFFF00)
open(path, 'wb').write(bytes(b))
EOF
early "$work/big.cpel"

# a DCPI profile database (DB/EPOCH/HOST/): a profile of 150 000 counted
# addresses (2.1 MB of listing), then one whose footer's total is one off
# (each profile is checked whole as it is opened, so the error comes
# after the first one's listing)
mkdir -p "$work/db/9805191724/walnut"
python3 - "$work/db/9805191724/walnut" <<'EOF'
import struct, sys
n = 150000
head = (b"version pdb-0.07\nimage 19970328081403c0c18b\nepoch 9805191724\n"
        b"platform walnut\nevent cycles\nperiod 63488\ntstart 120000000\n"
        b"tsize 8388608\ncpuspeed 333\nsamples")
while (len(head) + 1) % 4:
    head += b" "  # the header's length is a multiple of 4
body = head + b"\n" + struct.pack("<II", 0x100, n) + struct.pack("<%dI" % n, *([1] * n))
open(sys.argv[1] + "/a.prof", "wb").write(body + struct.pack("<II", n, n))
open(sys.argv[1] + "/b.prof", "wb").write(body + struct.pack("<II", n, n + 1))
EOF
early "$work/db"
early "$work/db" --format dcpicat

[ "$failed" = 0 ]
