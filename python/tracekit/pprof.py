"""A merged profile table as a pprof profile (profile.proto, gzip): one
sample type per event (unit "count", values = summed period, as `tracekit
report` weighs samples), one location per (image, symbol) with a function
named by the symbol and a mapping named by the image. The encoder is the
handful of protobuf rules profile.proto needs (varints, length-delimited
fields, packed repeated numbers); `go tool pprof` reads the result."""
import gzip


def _varint(n):
    out = bytearray()
    n &= (1 << 64) - 1
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _num(field, n):
    return _varint(field << 3) + _varint(n) if n else b""


def _bytes(field, data):
    return _varint(field << 3 | 2) + _varint(len(data)) + data


def _packed(field, nums):
    return _bytes(field, b"".join(_varint(n) for n in nums)) if nums else b""


class _Strings:
    def __init__(self):
        self.index = {"": 0}
        self.list = [""]

    def __call__(self, s):
        if s not in self.index:
            self.index[s] = len(self.list)
            self.list.append(s)
        return self.index[s]


def encode(weights, events):
    """weights: {(event, dso, symbol): weight}; events: the event names,
    in the order of the sample types. Returns the uncompressed bytes."""
    st = _Strings()
    body = bytearray()
    ev_index = {e: i for i, e in enumerate(events)}
    for e in events:
        body += _bytes(1, _num(1, st(e)) + _num(2, st("count")))
    mappings, functions, locations = {}, {}, {}
    samples = bytearray()
    for (event, dso, sym), w in sorted(weights.items(), key=lambda kv: tuple(str(x) for x in kv[0])):
        if not w:
            continue
        dso = dso or "[unknown]"
        sym = sym or "[unknown]"
        m = mappings.setdefault(dso, len(mappings) + 1)
        f = functions.setdefault((sym, dso), len(functions) + 1)
        loc = locations.setdefault((dso, sym), (len(locations) + 1, m, f))[0]
        values = [0] * len(events)
        values[ev_index[event]] = w
        samples += _bytes(2, _packed(1, [loc]) + _packed(2, values))
    body += samples
    for dso, mid in mappings.items():
        body += _bytes(3, _num(1, mid) + _num(5, st(dso)))
    for (dso, sym), (lid, mid, fid) in locations.items():
        body += _bytes(4, _num(1, lid) + _num(2, mid) + _bytes(4, _num(1, fid)))
    for (sym, dso), fid in functions.items():
        body += _bytes(5, _num(1, fid) + _num(2, st(sym)) + _num(3, st(sym)) + _num(4, st(dso)))
    for s in st.list:
        body += _bytes(6, s.encode("utf-8", "replace"))
    return bytes(body)


def write(path, weights, events):
    with gzip.open(path, "wb") as f:
        f.write(encode(weights, events))
