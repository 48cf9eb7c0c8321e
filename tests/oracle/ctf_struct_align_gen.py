#!/usr/bin/env python3
"""Hand-made big-endian CTF 1.8 traces for tests/oracle/ctf_struct_align.sh:
one directory per case below argv[1], whose names are printed. Each event is
written with the padding the CTF 1.8 alignment rules give (a struct aligns
as its most aligned member or its align(N)); babeltrace2 is the judge."""
import os, struct, sys

HEAD = """/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 16; align = 8; signed = false; byte_order = be; } := uint16_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
trace {
	major = 1; minor = 8;
	byte_order = be;
	packet.header := struct { uint32_t magic; uint32_t stream_id; };
};
"""

class W:
    def __init__(self):
        self.b = bytearray()
    def align(self, bits):
        n = bits // 8
        while len(self.b) % n:
            self.b.append(0)
    def u8(self, v): self.b += struct.pack(">B", v)
    def u16(self, v): self.b += struct.pack(">H", v)
    def u32(self, v): self.b += struct.pack(">I", v)
    def u64(self, v): self.b += struct.pack(">Q", v)

def write_trace(d, meta, events):
    """events: list of callables writing one event (header included) into W"""
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "metadata"), "w").write(HEAD + meta)
    w = W()
    w.u32(0xC1FC1FC1); w.u32(0)
    ctx = len(w.b); w.u64(0); w.u64(0)
    for ev in events:
        ev(w)
    size = len(w.b) * 8
    struct.pack_into(">QQ", w.b, ctx, size, size)
    open(os.path.join(d, "stream"), "wb").write(w.b)

STREAM = """stream {{ id = 0; event.header := {hdr};
	packet.context := struct {{ uint64_t content_size; uint64_t packet_size; }}; }};
"""

def ev_hdr32(eid, payload):
    """event header: uint8_t id in a struct aligned to 32 bits"""
    def f(w):
        w.align(32); w.u8(eid); payload(w)
    return f

def cases():
    c = {}
    # 1. named struct with align after its body, referenced as the event header
    c["named_header"] = (
        "struct eh { uint8_t id; } align(32);\n" + STREAM.format(hdr="struct eh") +
        'event { name = "a"; id = 0; stream_id = 0; fields := struct { uint8_t v; }; };\n'
        'event { name = "b"; id = 12; stream_id = 0; fields := struct { uint16_t v; }; };\n',
        [ev_hdr32(0, lambda w: w.u8(1)), ev_hdr32(12, lambda w: w.u16(0x1234)),
         ev_hdr32(0, lambda w: w.u8(3)), ev_hdr32(12, lambda w: w.u16(0x5678))])
    # 2. typealias of an anonymous struct with align
    c["typealias_header"] = (
        "typealias struct { uint8_t id; } align(32) := eh_t;\n" + STREAM.format(hdr="eh_t") +
        'event { name = "a"; id = 0; stream_id = 0; fields := struct { uint8_t v; }; };\n'
        'event { name = "b"; id = 12; stream_id = 0; fields := struct { uint16_t v; }; };\n',
        [ev_hdr32(0, lambda w: w.u8(1)), ev_hdr32(12, lambda w: w.u16(0x1234)),
         ev_hdr32(0, lambda w: w.u8(3))])
    # 3. typedef of a named struct declared with align
    c["typedef_named"] = (
        "struct eh { uint8_t id; } align(32);\ntypedef struct eh eh_t;\n" +
        STREAM.format(hdr="eh_t") +
        'event { name = "a"; id = 0; stream_id = 0; fields := struct { uint8_t v; }; };\n'
        'event { name = "b"; id = 12; stream_id = 0; fields := struct { uint16_t v; }; };\n',
        [ev_hdr32(0, lambda w: w.u8(1)), ev_hdr32(12, lambda w: w.u16(0x1234)),
         ev_hdr32(0, lambda w: w.u8(3))])
    # 4. named struct used as a field (payload and nested in another named struct)
    def p4(a, x, y):
        def f(w):
            w.align(64)                        # the payload struct aligns as o
            w.u8(a); w.align(32); w.u8(x)      # struct inner s
            w.align(64); w.u8(y)               # struct outer o { struct inner i; } -> align 64
        return f
    c["struct_field"] = (
        "struct inner { uint8_t x; } align(32);\n"
        "struct outer { struct inner i; } align(64);\n" + STREAM.format(hdr="struct { uint8_t id; }") +
        'event { name = "a"; id = 0; stream_id = 0; fields := struct { uint8_t a; struct inner s; struct outer o; }; };\n',
        [lambda w, f=p4(1, 2, 3): (w.u8(0), f(w)), lambda w, f=p4(4, 5, 6): (w.u8(0), f(w))])
    # 5. variant option that is an aligned named struct
    def p5(sel, val):
        def f(w):
            w.u8(0); w.u8(sel)
            if sel == 0:
                w.align(32); w.u8(val)
            else:
                w.u8(val)
            w.u8(0xee)
        return f
    c["variant_option"] = (
        "struct inner { uint8_t x; } align(32);\n"
        "enum sel_t : uint8_t { A = 0, B = 1 };\n" + STREAM.format(hdr="struct { uint8_t id; }") +
        'event { name = "a"; id = 0; stream_id = 0; fields := struct { enum sel_t tag; '
        'variant <tag> { struct inner A; uint8_t B; } v; uint8_t end; }; };\n',
        [p5(0, 7), p5(1, 8), p5(0, 9)])
    # 6. array and sequence of an aligned named struct
    def p6(vals):
        def f(w):
            w.u8(0)
            w.align(32)         # the payload struct aligns as arr
            w.u8(0xaa)
            for v in vals:      # struct inner arr[2]
                w.align(32); w.u8(v)
            w.u8(len(vals))     # len
            for v in vals:      # struct inner seq[len]
                w.align(32); w.u8(v + 100)
            w.u8(0xee)
        return f
    c["array_elem"] = (
        "struct inner { uint8_t x; } align(32);\n" + STREAM.format(hdr="struct { uint8_t id; }") +
        'event { name = "a"; id = 0; stream_id = 0; fields := struct { uint8_t a; '
        'struct inner arr[2]; uint8_t len; struct inner seq[len]; uint8_t end; }; };\n',
        [p6([1, 2]), p6([3, 4])])
    # 8. typedef'd aligned struct as array element inside a variant inside a struct
    def p8(sel, vals):
        def f(w):
            w.u8(0); w.u8(sel)
            if sel == 0:
                for v in vals:
                    w.align(32); w.u8(v)
            else:
                w.u16(vals[0])
            w.u8(0xee)
        return f
    c["nested_mix"] = (
        "typedef struct { uint8_t x; } align(32) in_t;\n"
        "enum sel_t : uint8_t { A = 0, B = 1 };\n" + STREAM.format(hdr="struct { uint8_t id; }") +
        'event { name = "a"; id = 0; stream_id = 0; fields := struct { enum sel_t tag; '
        'variant <tag> { in_t A[2]; uint16_t B; } v; uint8_t end; }; };\n',
        [p8(0, [1, 2]), p8(1, [0x0102]), p8(0, [3, 4])])
    # 8. the older-LTTng shape: a large event header (compact/extended
    # variant, clock-mapped timestamps) declared with align(32) and named
    clock = (
        "clock { name = monotonic; freq = 1000000000; offset = 0; };\n"
        "typealias integer { size = 32; align = 8; signed = false; "
        "map = clock.monotonic.value; } := uint32_clock_monotonic_t;\n"
        "typealias integer { size = 64; align = 8; signed = false; "
        "map = clock.monotonic.value; } := uint64_clock_monotonic_t;\n"
        "struct event_header_large {\n"
        "\tenum : uint16_t { compact = 0 ... 65534, extended = 65535 } id;\n"
        "\tvariant <id> { struct { uint32_clock_monotonic_t timestamp; } compact;\n"
        "\t\tstruct { uint32_t id; uint64_clock_monotonic_t timestamp; } extended; } v;\n"
        "} align(32);\n")
    def large(eid, ts, payload, extended=False):
        def f(w):
            w.align(32)
            if extended:
                w.u16(65535); w.u32(eid); w.u64(ts)
            else:
                w.u16(eid); w.u32(ts)
            payload(w)
        return f
    c["lttng_large_header"] = (
        clock + STREAM.format(hdr="struct event_header_large") +
        'event { name = "a"; id = 1; stream_id = 0; fields := struct { uint8_t v; }; };\n'
        'event { name = "b"; id = 12; stream_id = 0; fields := struct { uint16_t v; }; };\n',
        [large(1, 1000, lambda w: w.u8(1)), large(12, 2000, lambda w: w.u16(0x1234)),
         large(12, 3000, lambda w: w.u16(0x4321), extended=True),
         large(1, 4000, lambda w: w.u8(4)), large(12, 5000, lambda w: w.u16(7))])
    # 9. an aligned struct declared inside another struct's body
    def p9(a, x, y):
        def f(w):
            w.u8(0); w.align(32); w.u8(a)
            w.align(32); w.u8(x)   # struct in { } align(32) i
            w.align(32); w.u8(y)   # struct in j (the same declaration, by name)
        return f
    c["inner_declaration"] = (
        STREAM.format(hdr="struct { uint8_t id; }") +
        'event { name = "a"; id = 0; stream_id = 0; fields := struct { uint8_t a; '
        'struct in { uint8_t x; } align(32) i; struct in j; }; };\n',
        [p9(1, 2, 3), p9(4, 5, 6)])
    return c

out = sys.argv[1]
for name, (meta, evs) in cases().items():
    write_trace(os.path.join(out, name), meta, evs)
    print(name)
