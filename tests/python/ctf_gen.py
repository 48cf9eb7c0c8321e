"""Small CTF 1.8 traces written for the columns() tests: several streams
(and traces) whose events interleave in time, the shapes the CTF reader's
lean fast path takes (an event header of id + timestamp, payloads of
fixed-size integers and strings) and the ones it must hand back to the
interpreter and the merge: a stream class with a sequence, a narrow
timestamp that wraps, time ties between streams, timestamps that go
backwards or leave their packet's range, discarded events, a clock that is
not 1 GHz. Deterministic for a seed.

write_trace(dir, seed, streams=..., ...) -> the number of events written;
CASES: the named set the tests read (write_case(dir, name));
`ctf_gen.py DIR` writes every case below DIR (the C unit test
tests/unit/test_lean_reader.c reads them too)."""
import os
import random
import struct
import sys

MAGIC = 0xC1FC1FC1


# stream classes 0 and 1 differ only in their events
_STREAM = """stream {
	id = %d;
	packet.context := struct {
		clk64_t timestamp_begin; clk64_t timestamp_end;
		uint64_t content_size; uint64_t packet_size;
		uint64_t events_discarded; uint32_t cpu_id;
	};
	event.header := struct { %s };
};
"""


def _metadata(ts_bits, freq, offset_s):
    if ts_bits == 64:
        header = "uint32_t id; clk64_t timestamp;"
    else:
        # one 32-bit run: 5 bits of id, 27 of time (a compact header)
        header = ("integer { size = 5; align = 8; signed = false; } id; "
                  "integer { size = 27; align = 1; signed = false; map = clock.c.value; } "
                  "timestamp;")
    return """/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
typealias integer { size = 64; align = 8; signed = true; } := int64_t;
trace {
	major = 1;
	minor = 8;
	byte_order = le;
	packet.header := struct { uint32_t magic; uint32_t stream_id; };
};
clock { name = c; freq = %d; offset_s = %d; offset = 0; };
typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := clk64_t;
%sevent { name = "sched_a"; id = 0; stream_id = 0; fields := struct { uint32_t x; string s; }; };
event { name = "sched_b"; id = 1; stream_id = 0; fields := struct { int64_t y; }; };
event { name = "irq_c"; id = 2; stream_id = 0; fields := struct { string t; uint8_t z; }; };
event { name = "seq_d"; id = 0; stream_id = 1; fields := struct { uint8_t n; uint8_t v[n]; }; };
event { name = "plain_e"; id = 1; stream_id = 1; fields := struct { uint32_t x; }; };
""" % (freq, offset_s, "".join(_STREAM % (i, header) for i in (0, 1)))


def _event(r, sid, eid, ts, ts_bits):
    if ts_bits == 64:
        head = struct.pack("<IQ", eid, ts)
    else:
        head = struct.pack("<I", (eid & 31) | ((ts & ((1 << 27) - 1)) << 5))
    if sid == 0 and eid == 0:
        word = "".join(r.choice("abcdefgh") for _ in range(r.randint(0, 20)))
        body = struct.pack("<I", r.getrandbits(32)) + word.encode() + b"\0"
    elif sid == 0 and eid == 1:
        body = struct.pack("<q", r.randint(-(1 << 40), 1 << 40))
    elif sid == 0:
        body = b"x" * r.randint(0, 5) + b"\0" + struct.pack("<B", r.getrandbits(8))
    elif eid == 0:
        n = r.randint(0, 4)
        body = struct.pack("<B", n) + bytes(r.getrandbits(8) for _ in range(n))
    else:
        body = struct.pack("<I", r.getrandbits(32))
    return head + body


def _stream(r, sid, cpu, times, ts_bits, oddities, n_classes):
    """Packets of 1..60 events of the given (sorted) times."""
    out = bytearray()
    disc = 0
    i = 0
    while i < len(times):
        k = r.randint(1, 60)
        chunk = list(times[i:i + k])
        i += k
        begin, end = chunk[0], chunk[-1]
        if oddities and r.random() < 0.1 and len(chunk) > 2:
            # one event earlier than the one before it (backwards)
            j = r.randrange(1, len(chunk))
            chunk[j] = max(0, chunk[j - 1] - r.randint(1, 50))
        if oddities and r.random() < 0.1 and len(chunk) > 2:
            # the packet's range ends early: the events after it are
            # outside the range (their order stays)
            end = chunk[r.randrange(0, len(chunk) - 1)]
        if oddities and r.random() < 0.15:
            disc += r.randint(1, 9)
        body = b"".join(_event(r, sid, r.randrange(n_classes), t, ts_bits) for t in chunk)
        head_len = 8 + 44
        content = head_len + len(body)
        pad = r.choice((0, 0, 3, 16))
        size = content + pad
        out += struct.pack("<II", MAGIC, sid)
        out += struct.pack("<QQQQQI", begin, end, content * 8, size * 8, disc, cpu)
        out += body + b"\0" * pad
    return bytes(out)


def write_trace(d, seed, streams=3, events=3000, ts_bits=64, freq=1000000000, offset_s=0,
                seq_stream=False, oddities=False, step=40, base=0):
    """A trace in directory d: `streams` data streams of stream class 0
    (one CPU each; with seq_stream the last is of class 1, whose events
    need the interpreter). Times are drawn on a coarse grid shared by all
    streams, so ties between streams are common; they start near base
    (2**27 - a little: a narrow timestamp wraps)."""
    r = random.Random(seed)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "metadata"), "w") as f:
        f.write(_metadata(ts_bits, freq, offset_s))
    total = 0
    for s in range(streams):
        sid = 1 if seq_stream and s == streams - 1 else 0
        n = events // streams
        t = base + r.randint(0, 1000)
        times = []
        for _ in range(n):
            t += r.randint(0, step) // 10 * 10
            times.append(t)
        data = _stream(r, sid, s, times, ts_bits, oddities, 3 if sid == 0 else 2)
        with open(os.path.join(d, "stream_%d" % s), "wb") as f:
            f.write(data)
        total += n
    return total


# The tests' traces: name -> write_trace arguments (a list: several traces
# in one directory, read as one merged input).
CASES = {
    "three-streams-ties": dict(streams=3, events=6000),
    "one-stream-long-runs": dict(streams=1, events=5000, step=1000),
    "interpreter-stream": dict(streams=3, events=4000, seq_stream=True),
    "narrow-clock-wraps": dict(streams=2, events=3000, ts_bits=27, base=2**27 - 3000),
    "backwards-outside-discarded": dict(streams=3, events=6000, oddities=True),
    "clock-not-1ghz": dict(streams=2, events=2000, freq=1000000, oddities=True),
    "clock-offset": dict(streams=2, events=2000, offset_s=1700000000),
    "two-traces": [dict(streams=2, events=3000), dict(streams=2, events=3000, oddities=True)],
}


def write_case(d, name):
    """The case's trace(s) in directory d; returns the number of events."""
    args = CASES[name]
    if isinstance(args, list):
        return sum(write_trace(os.path.join(d, "t%d" % i), 11 + i, **a)
                   for i, a in enumerate(args))
    return write_trace(d, 7, **args)


if __name__ == "__main__":
    for name in CASES:
        write_case(os.path.join(sys.argv[1], name), name)
