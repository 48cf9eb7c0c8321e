#!/usr/bin/env python3
"""Hostile inputs that claim huge counts and sizes, run under a memory cap.

  hostile.py CASE VERB [OPTION...]      (env: TK = tracekit, TK_TESTDATA)

Writes the input CASE (below) into a scratch directory, then runs
`$TK VERB [OPTION...] NAME` there (NAME = the case's file name, or `-` with
the input on stdin for the `stdin-*` cases), so messages name the file the
same way in every checkout. The run is capped:

  - memory: RLIMIT_AS = --mem-mb (default 128 MiB) in a plain build; under
    ASan (whose shadow memory needs terabytes of address space) no single
    allocation may exceed it (max_allocation_size_mb, failing as a crash);
  - time: 10 s, after which the run is killed and this exits 124;
  - descriptors, for the cases listed in NOFILE.

A reader that believed the claimed count (2^31 attrs, a 4 GiB section, a
2^32-element sequence...) and allocated for it fails here instead of
reporting the damage. Golden cases tests/cli/cases/robust_*.cmd call this.
Most inputs are a real test data file with a few bytes overwritten; the
offsets are those of that file.
"""

import os
import resource
import shutil
import struct
import subprocess
import sys
import tempfile

DATA = os.environ.get("TK_TESTDATA", os.path.join(os.path.dirname(__file__),
                                                  "../../../shared/testdata"))


def testdata(rel):
    with open(os.path.join(DATA, rel), "rb") as f:
        return bytearray(f.read())


def put(buf, off, fmt, *vals):
    struct.pack_into(fmt, buf, off, *vals)
    return buf


# perf.data, file mode (lpd/sleep.data: attr_size 0x88 at 0x10, attrs
# section {offset, size} at 0x18, data at 0x28, feature bits at 0x48).
def perf_nr_attrs():
    """attrs.size = 2^31 attrs of 136 bytes."""
    return put(testdata("perf/lpd/sleep.data"), 0x20, "<Q", (1 << 31) * 0x88)


def perf_attr_size():
    """attr_size = 2^32 - 8: one attr bigger than any file."""
    return put(testdata("perf/lpd/sleep.data"), 0x10, "<Q", 0xfffffff8)


def perf_data_size():
    """data section claims 2^63 bytes."""
    return put(testdata("perf/lpd/sleep.data"), 0x30, "<Q", 1 << 63)


def perf_feature_sections():
    """every feature section claims offset 0, size 2^62 (the section table
    follows the data section)."""
    b = testdata("perf/lpd/sleep.data")
    data_off, data_size = struct.unpack_from("<QQ", b, 0x28)
    bits = int.from_bytes(b[0x48:0x68], "little")
    n = bin(bits).count("1")
    for i in range(n):
        put(b, data_off + data_size + 16 * i + 8, "<Q", 1 << 62)
    return b


def pipe_header():
    return b"PERFILE2" + struct.pack("<Q", 16)


def record(rtype, payload, misc=0):
    size = 8 + len(payload)
    return struct.pack("<IHH", rtype, misc, size) + payload


def perf_pipe_tracing_data():
    """pipe mode: TRACING_DATA (66) announces 0xfffffff0 bytes of data that
    follow the record; 40 bytes are there."""
    return pipe_header() + record(66, struct.pack("<II", 0xfffffff0, 0)) + b"\x17\x08\x44tracing" \
        + bytes(30)


def perf_pipe_auxtrace():
    """pipe mode: AUXTRACE (71) with a u64 size of 2^62 bytes after it."""
    body = struct.pack("<QQQIII", 1 << 62, 0, 0, 0, 0, 0)
    return pipe_header() + record(71, body) + bytes(64)


def perf_pipe_compressed2():
    """pipe mode: COMPRESSED2 (83) whose u64 data_size says 2^60 bytes."""
    return pipe_header() + record(83, struct.pack("<Q", 1 << 60) + bytes(16))


def zstd_rle_frame(byte, blocks, last=True):
    """A zstd frame of `blocks` RLE blocks of 128 KiB of `byte` each: 4 bytes
    per block on disk, 128 KiB each once decompressed."""
    out = bytearray(struct.pack("<I", 0xFD2FB528))
    out += bytes([0x00, 0x38])  # no content size, no checksum; window 2^17
    for i in range(blocks):
        is_last = last and i == blocks - 1
        hdr = (128 * 1024) << 3 | 1 << 1 | int(is_last)  # RLE block
        out += hdr.to_bytes(3, "little") + bytes([byte])
    return bytes(out)


def perf_pipe_zstd_bomb():
    """pipe mode: one 64 KiB COMPRESSED (81) record that decompresses to
    2 GiB of 0x08 bytes, i.e. a million well-formed records of unknown type
    0x08080808 and size 0x0808. Decompression must stream, not buffer."""
    frame = zstd_rle_frame(0x08, 16000)
    return pipe_header() + record(81, frame)


# CTF: a two-file trace built here.
CTF_META = """/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
trace {
    major = 1; minor = 8; byte_order = le;
    packet.header := struct { uint32_t magic; uint32_t stream_id; };
};
stream {
    id = 0;
    event.header := struct { uint32_t id; };
};
event {
    name = "seq"; id = 0; stream_id = 0;
    fields := struct { uint32_t len; uint8_t data[len]; };
};
event {
    name = "huge_array"; id = 1; stream_id = 0;
    fields := struct { uint8_t data[4294967295]; };
};
"""


def ctf_trace(events):
    return {"metadata": CTF_META.encode(),
            "stream_0": struct.pack("<II", 0xC1FC1FC1, 0) + events}


def ctf_sequence_len():
    """an event whose sequence length field says 2^32 - 1 elements."""
    return ctf_trace(struct.pack("<II", 0, 0xffffffff) + bytes(8))


def ctf_static_array():
    """an event of a 2^32 - 1 byte static array, 16 bytes of it present."""
    return ctf_trace(struct.pack("<I", 1) + bytes(16))


def ctf_metadata_array():
    """metadata only: arrays of arrays claiming 2^64 elements in all."""
    meta = CTF_META.replace("uint8_t data[4294967295];",
                            "uint8_t data[4294967295][4294967295][4294967295];")
    return {"metadata": meta.encode(), "stream_0": struct.pack("<II", 0xC1FC1FC1, 0)}


def ctf_named_types():
    """30 named structs, each of two members of the one before: 2^31
    integers once every use of a name is expanded."""
    meta = CTF_META.split("event {")[0] + "struct s0 { uint8_t a; uint8_t b; };\n"
    for i in range(1, 31):
        meta += f"struct s{i} {{ struct s{i - 1} a; struct s{i - 1} b; }};\n"
    meta += 'event { name = "e"; id = 0; stream_id = 0; fields := struct { struct s30 x; }; };\n'
    return {"metadata": meta.encode(), "stream_0": struct.pack("<III", 0xC1FC1FC1, 0, 0)}


def ctf_many_streams():
    """500 stream files of one event each (run with 64 descriptors)."""
    trace = {"metadata": CTF_META.split("event {")[0].encode() +
             b'event { name = "e"; id = 0; stream_id = 0; fields := struct { uint8_t x; }; };\n'}
    for i in range(500):
        trace[f"s{i:04d}"] = struct.pack("<III", 0xC1FC1FC1, 0, 0) + bytes([i & 0xff])
    return trace


# Descriptor limits of the cases that need one.
NOFILE = {"ctf_many_streams": 64}


# CPEL (basic-le.cpel: sections start at 8; STRTAB length at 0xc).
def cpel_section_length():
    """first section length 0xfffffff0 (near 4 GiB)."""
    return put(testdata("cpel/basic-le.cpel"), 0xc, "<I", 0xfffffff0)


def cpel_event_count():
    """EVENT section: number_of_events = 2^32 - 1."""
    b = testdata("cpel/basic-le.cpel")
    off = 8
    while off + 8 <= len(b):
        stype, length = struct.unpack_from("<II", b, off)
        if stype == 5:
            return put(b, off + 8 + 64, "<I", 0xffffffff)
        off += 8 + length
    raise SystemExit("no EVENT section in basic-le.cpel")


def cpel_nsections():
    """nsections = 65535 with four present."""
    return put(testdata("cpel/basic-le.cpel"), 2, "<H", 0xffff)


# VPP elog (vpp-small.elog: vector of event types, u32 big-endian at 0x2f).
def elog_event_types():
    """2^32 - 1 event types claimed."""
    return put(testdata("cpel/vpp-small.elog"), 0x2f, ">I", 0xffffffff)


# DCPI (simple.prof: the binary body follows "samples \n").
def dcpi_chunk_number():
    """first chunk: number = 2^32 - 1 counts."""
    b = testdata("dcpi/simple.prof")
    body = b.index(b"samples \n") + len(b"samples \n")
    return put(b, body + 4, "<I", 0xffffffff)


CASES = {
    "perf_nr_attrs": ("nr_attrs.data", perf_nr_attrs),
    "perf_attr_size": ("attr_size.data", perf_attr_size),
    "perf_data_size": ("data_size.data", perf_data_size),
    "perf_feature_sections": ("features.data", perf_feature_sections),
    "perf_pipe_tracing_data": ("tracing_data.pipe", perf_pipe_tracing_data),
    "perf_pipe_auxtrace": ("auxtrace.pipe", perf_pipe_auxtrace),
    "perf_pipe_compressed2": ("compressed2.pipe", perf_pipe_compressed2),
    "perf_pipe_zstd_bomb": ("zstd_bomb.pipe", perf_pipe_zstd_bomb),
    "ctf_sequence_len": ("seq_trace", ctf_sequence_len),
    "ctf_static_array": ("array_trace", ctf_static_array),
    "ctf_metadata_array": ("nested_trace", ctf_metadata_array),
    "ctf_named_types": ("laugh_trace", ctf_named_types),
    "ctf_many_streams": ("many_streams", ctf_many_streams),
    "cpel_section_length": ("section_length.cpel", cpel_section_length),
    "cpel_event_count": ("event_count.cpel", cpel_event_count),
    "cpel_nsections": ("nsections.cpel", cpel_nsections),
    "elog_event_types": ("event_types.elog", elog_event_types),
    "dcpi_chunk_number": ("chunk_number.prof", dcpi_chunk_number),
    "ctf2_deep_json": ("deep_json_trace", lambda: ctf2_deep_json()),
    "ctf2_many_fragments": ("fragments_trace", lambda: ctf2_many_fragments()),
    "ctf2_huge_lengths": ("huge_trace", lambda: ctf2_huge_lengths()),
}


# CTF 2 (JSON metadata; each fragment after 0x1E).
CTF2_HEAD = (b'\x1e{"type":"preamble","version":2}\n'
             b'\x1e{"type":"data-stream-class"}\n')


def ctf2_deep_json():
    """CTF 2 metadata: a fragment of 10^6 nested JSON arrays."""
    return {"metadata": CTF2_HEAD + b"\x1e" + b"[" * 1000000 + b"]" * 1000000 + b"\n",
            "stream": bytes(4)}


def ctf2_many_fragments():
    """CTF 2 metadata of 10^6 event record class fragments (38 MB)."""
    frags = b"".join(b'\x1e{"type":"event-record-class","id":%d}' % i
                     for i in range(1000000))
    return {"metadata": CTF2_HEAD + frags, "stream": bytes(4)}


def ctf2_huge_lengths():
    """CTF 2: a static-length array of 2^32 - 1 u32, then a dynamic-length
    blob whose LEB128 length says 2^63 bytes; 16 bytes of data."""
    meta = CTF2_HEAD + (
        b'\x1e{"type":"event-record-class","payload-field-class":{"type":"structure",'
        b'"member-classes":[{"name":"n","field-class":{"type":"variable-length-unsigned-'
        b'integer"}},{"name":"b","field-class":{"type":"dynamic-length-blob",'
        b'"length-field-location":{"path":["n"]}}},{"name":"a","field-class":{"type":'
        b'"static-length-array","length":4294967295,"element-field-class":{"type":'
        b'"fixed-length-unsigned-integer","length":32,"byte-order":"little-endian"}}}]}}\n')
    return {"metadata": meta, "stream": b"\x80" * 9 + b"\x01" + bytes(6)}


def is_asan(binary):
    with open(binary, "rb") as f:
        return b"__asan_init" in f.read()


def main():
    args = sys.argv[1:]
    mem_mb = 128
    if args[:1] == ["--mem-mb"]:
        mem_mb = int(args[1])
        args = args[2:]
    if len(args) < 2 or args[0].replace("stdin-", "") not in CASES:
        sys.exit("usage: hostile.py [--mem-mb N] [stdin-]CASE VERB [OPTION...]\ncases: "
                 + " ".join(sorted(CASES)))
    case, verb, opts = args[0], args[1], args[2:]
    stdin = case.startswith("stdin-")
    name, make = CASES[case.replace("stdin-", "")]
    tk = os.environ["TK"]
    env = dict(os.environ)
    limit = None
    if is_asan(tk):
        env["ASAN_OPTIONS"] = (f"max_allocation_size_mb={mem_mb}:allocator_may_return_null=0:"
                               "detect_leaks=1")
    else:
        limit = mem_mb << 20
    work = tempfile.mkdtemp(prefix="tk-hostile-")
    try:
        made = make()
        if isinstance(made, dict):
            os.mkdir(os.path.join(work, name))
            for fname, content in made.items():
                with open(os.path.join(work, name, fname), "wb") as f:
                    f.write(content)
        else:
            with open(os.path.join(work, name), "wb") as f:
                f.write(made)

        nofile = NOFILE.get(case.replace("stdin-", ""))

        def cap():
            if limit:
                resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
            if nofile:
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

        sys.stdout.flush()
        cmd = [tk, verb] + opts + (["-"] if stdin else [name])
        fin = open(os.path.join(work, name), "rb") if stdin else subprocess.DEVNULL
        try:
            rc = subprocess.run(cmd, cwd=work, env=env, stdin=fin, preexec_fn=cap,
                                timeout=10).returncode
        except subprocess.TimeoutExpired:
            print(f"hostile.py: {case}: no exit after 10 s", file=sys.stderr)
            rc = 124
        return rc if rc >= 0 else 128 - rc
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
