#!/usr/bin/env python3
"""Writes a perf.data file (file mode) of made-up user samples on real
images, so that a test can put samples in the order a perf quirk needs
(which sample makes a hist entry) without depending on timing.

  synth_perf.py OUT --image KEY=PATH[:SYMS] ... --sample "KEY:SYM+OFF ..." ...

--image maps PATH's executable segment into one process (comm "synth",
pid 4242); its symbols' addresses are read with nm from SYMS (an
unstripped copy of PATH; PATH itself when left out). Each --sample is a
cpu-clock:u sample, in the order given, 1 us apart: its first frame is
the sample's ip, the others its callers (a frame-pointer chain). A frame
is KEY:SYM+OFF (OFF hex, default 0).
"""
import argparse
import re
import struct
import subprocess

PID = 4242
USER = 2  # PERF_RECORD_MISC_USER
CONTEXT_USER = 0xFFFFFFFFFFFFFE00
SAMPLE_TYPE = 0x1 | 0x2 | 0x4 | 0x100 | 0x20  # IP TID TIME PERIOD CALLCHAIN
ATTR_SIZE = 128


def exec_segment(path):
    """(vaddr, offset, memsz) of the executable PT_LOAD."""
    out = subprocess.run(["readelf", "-lW", path], check=True, capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == "LOAD" and "E" in f[6:-1]:
            return int(f[2], 16), int(f[1], 16), int(f[5], 16)
    raise SystemExit(f"{path}: no executable segment")


def symbols(path):
    out = subprocess.run(["nm", "--defined-only", path], check=True, capture_output=True,
                         text=True).stdout
    syms = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "tTwW":
            syms.setdefault(f[2], int(f[0], 16))
    return syms


def record(rtype, payload, misc=USER, time=0):
    payload += struct.pack("<IIQ", PID, PID, time)  # sample_id_all: TID, TIME
    return struct.pack("<IHH", rtype, misc, 8 + len(payload)) + payload


def padded(name):
    raw = name.encode() + b"\0"
    return raw + b"\0" * (-len(raw) % 8)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--image", action="append", default=[])
    ap.add_argument("--sample", action="append", default=[])
    a = ap.parse_args()

    images, data = {}, b""
    data += record(3, struct.pack("<II", PID, PID) + padded("synth"))  # COMM
    for n, spec in enumerate(a.image):
        key, _, paths = spec.partition("=")
        path, _, syms = paths.partition(":")
        vaddr, offset, memsz = exec_segment(path)
        base = 0x555555554000 if n == 0 else 0x7F0000000000 + n * 0x10000000
        page = vaddr & ~0xFFF
        start = base + page
        length = ((vaddr + memsz + 0xFFF) & ~0xFFF) - page
        images[key] = (base, symbols(syms or path))
        mmap2 = struct.pack("<IIQQQIIQQII", PID, PID, start, length, offset & ~0xFFF,
                            0, 0, 0, 0, 5, 2) + padded(path)  # PROT_READ|EXEC, PRIVATE
        data += record(10, mmap2)

    def address(frame):
        m = re.fullmatch(r"(\w+):([\w.@]+)(?:\+([0-9a-fA-F]+))?", frame)
        if not m:
            raise SystemExit(f"bad frame {frame!r}")
        base, syms = images[m.group(1)]
        return base + syms[m.group(2)] + int(m.group(3) or "0", 16)

    for i, spec in enumerate(a.sample):
        ips = [address(f) for f in spec.split()]
        time = 1000 * (i + 1)
        chain = [CONTEXT_USER] + ips
        body = struct.pack("<QIIQQQ", ips[0], PID, PID, time, 1000000, len(chain))
        body += struct.pack(f"<{len(chain)}Q", *chain)
        data += struct.pack("<IHH", 9, USER, 8 + len(body)) + body

    flags = (1 << 5) | (1 << 6) | (1 << 8) | (1 << 9) | (1 << 18) | (1 << 23)
    # exclude_kernel, exclude_hv, mmap, comm, sample_id_all, mmap2
    attr = struct.pack("<IIQQQQQQ", 1, ATTR_SIZE, 0, 1000000, SAMPLE_TYPE, 0, flags, 0)
    attr += b"\0" * (ATTR_SIZE - len(attr))
    header_size = 104
    ids_off = header_size
    attrs_off = ids_off + 8
    file_attr = attr + struct.pack("<QQ", ids_off, 8)
    data_off = attrs_off + len(file_attr)
    header = b"PERFILE2" + struct.pack("<QQ", header_size, len(file_attr))
    header += struct.pack("<QQQQQQ", attrs_off, len(file_attr), data_off, len(data), 0, 0)
    header += b"\0" * 32  # no feature sections
    with open(a.out, "wb") as f:
        f.write(header + struct.pack("<Q", 1) + file_attr + data)


if __name__ == "__main__":
    main()
