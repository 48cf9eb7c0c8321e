#!/usr/bin/env python3
"""Adds bpf-output samples to a perf.data file recorded with -e bpf-output.

Recording bpf-output samples needs a BPF program calling
bpf_perf_event_output; this machine has no BPF toolchain. So a test
records a real file with the event (attrs, ids and features as perf
writes them, no samples) and this script appends SAMPLE records with RAW
payloads of several sizes (one not a multiple of 4) to its data section,
moving the feature sections after it. Usage: SRC DST.
"""
import struct
import sys
import time

src, dst = sys.argv[1], sys.argv[2]
b = bytearray(open(src, 'rb').read())
assert b[:8] == b'PERFILE2'
data_off, data_size = struct.unpack_from('<QQ', b, 40)
bitmap = b[72:104]
nfeat = sum(bin(x).count('1') for x in bitmap)
feat_tab = data_off + data_size
# after every record perf wrote (perf record ran with the monotonic clock)
t = time.monotonic_ns()
recs = []
payloads = [
    b'\x01\x02\x03\x04',
    bytes(range(12)),
    b'\xff' * 20,
    b'abcdef',  # 6 bytes: not whole u32 words
    b'\x10\x20\x30\x40' * 7,
    b'hello, bpf\0\0\0\0',  # a C string: perf script adds "BPF string:"
    bytes([0x7f, 0x80, 0x9f, 0xa0, 0xc8, 0xff, 0x41, 0, 0x42, 0, 0, 0]),  # NUL then text
]
for i, raw in enumerate(payloads):
    # IP, PID/TID, TIME, CPU/res, PERIOD, then RAW: u32 size + bytes, padded
    body = struct.pack('<QIIQIIQ', 0x401000 + i, 100, 100 + i, t + i * 1000, i % 2, 0, 1)
    r = struct.pack('<I', len(raw)) + raw
    r += b'\0' * ((-len(r)) % 8)
    recs.append(struct.pack('<IHH', 9, 2, 8 + len(body) + len(r)) + body + r)
new = b''.join(recs)
out = bytearray(b[:feat_tab]) + new + b[feat_tab:]
struct.pack_into('<Q', out, 48, data_size + len(new))
for k in range(nfeat):
    at = feat_tab + len(new) + 16 * k
    off, size = struct.unpack_from('<QQ', out, at)
    struct.pack_into('<Q', out, at, off + len(new))
open(dst, 'wb').write(out)
