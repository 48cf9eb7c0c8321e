#!/usr/bin/env python3
"""Writes a big-endian CPEL v1 file with N events for bench/cpel_bench.sh:
16 event definitions (datum formats %d, 0x%08x and %s), 8 tracks, one
event section at 1 GHz, events 1..50 us apart, datum strings in the table."""
import struct
import sys

n = int(sys.argv[2]) if len(sys.argv) > 2 else 2000000
out = sys.argv[1]

strtab = bytearray(b"BenchStrings\0")
def s(text):
    off = len(strtab)
    strtab.extend(text.encode() + b"\0")
    return off

kinds = ["%d", "0x%08x", "%s"]
defs = []
for code in range(16):
    defs.append((code, s("EVENT/%02d" % code if code % 4 else "THREAD/RUNNING %d" if code == 0 else "PKT/RX-%d" % code), s(kinds[code % 3])))
tracks = [(t, s("cpu %d")) for t in range(8)]
words = [s("message number %d" % i) for i in range(64)]
while len(strtab) % 8:
    strtab.append(0)

def name64(x):
    return x.encode().ljust(64, b"\0")

f = open(out, "wb")
f.write(struct.pack(">BBHI", 1, 0, 4, 1700000000))
f.write(struct.pack(">II", 1, len(strtab)) + strtab)
f.write(struct.pack(">II", 3, 68 + 12 * len(defs)) + name64("BenchStrings") + struct.pack(">I", len(defs)))
for d in defs:
    f.write(struct.pack(">III", *d))
f.write(struct.pack(">II", 4, 68 + 8 * len(tracks)) + name64("BenchStrings") + struct.pack(">I", len(tracks)))
for t in tracks:
    f.write(struct.pack(">II", *t))
f.write(struct.pack(">II", 5, 72 + 20 * n) + name64("BenchStrings") + struct.pack(">II", n, 1000000000))
t = 0
chunk = []
for i in range(n):
    t += 1000 + (i * 7919) % 49000
    code = (i * 13) % 16
    datum = words[i % 64] if code % 3 == 2 else (i * 2654435761) & 0xffffffff
    chunk.append(struct.pack(">IIIII", t >> 32, t & 0xffffffff, i % 8, code, datum))
    if len(chunk) == 65536:
        f.write(b"".join(chunk))
        chunk = []
f.write(b"".join(chunk))
f.close()
