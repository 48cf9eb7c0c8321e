"""tracekit: perf.data, CTF, CPEL/elog and DCPI files from Python.

    import tracekit
    with tracekit.open("perf.data", events="sched:*") as src:
        print(src.info["format"])
        for ev in src:                      # light Event objects
            print(ev.name, ev.ts, ev.cpu, ev.tid, ev.fields.get("prev_comm"))

    for cols in tracekit.open("trace/").columns(["ts", "cpu", "name", "field:prev_pid"]):
        cols["ts"]                          # numpy arrays, one batch at a time

    df = tracekit.to_pandas("perf.data", ["ts", "tid", "name", "period"])

Filters accepted by open(), columns(), to_pandas() and convert(): begin, end
(seconds, like the CLI's bare numbers), begin_ns, end_ns, events (globs,
comma-separated or a list), pid, tid, cpu, limit. Errors raise
tracekit.Error with .file, .offset (None when not tied to a position) and
.message. Decoding releases the GIL.
"""

import os
from collections import namedtuple

from . import _tracekit
from ._tracekit import Error, Event

__all__ = ["Error", "Event", "Source", "Span", "open", "to_pandas", "convert", "profile",
           "format_of", "sql", "COLUMN_TYPES"]

Span = namedtuple("Span", "kind name begin_ns end_ns cpu pid tid track depth truncated")

# Element types of Source.columns() (see python/tkpy_columns.c).
COLUMN_TYPES = {
    "ts": "uint64", "offset": "uint64", "period": "uint64",
    "cpu": "int32", "pid": "int32", "tid": "int32", "name": "uint32",
}


def _column_type(name):
    if name.startswith("field:"):
        return "float64" if name.endswith(":f") and len(name) > 8 else "int64"
    if name not in COLUMN_TYPES:
        raise ValueError("unknown column '%s' (ts, offset, period, cpu, pid, tid, name, "
                         "field:NAME, field:NAME:f)" % name)
    return COLUMN_TYPES[name]


class Source:
    """An open input. Iterate it for Events (each valid with its fields
    until the next one is read, unless opened with fields=True), read
    columns() for numpy arrays, .info for what the file holds."""

    def __init__(self, path, **options):
        self._src = _tracekit.open(os.fspath(path), **options)

    def __iter__(self):
        return self._src          # the C iterator: no Python frame per event

    def __next__(self):
        return next(self._src)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def close(self):
        self._src.close()

    @property
    def closed(self):
        return self._src.closed

    @property
    def info(self):
        """format, name, env, clocks and event_classes of the input."""
        return self._src.info

    @property
    def warnings(self):
        return self._src.warnings

    @property
    def path(self):
        return self._src.path

    def threads(self):
        """Every thread of the input as the model context derives it: dicts
        of tid, pid (None when unknown), name (the latest), process (its
        leader's name), first_ns, last_ns, exited. perf.data: perf's own
        COMM/FORK/EXIT model; CTF: LTTng contexts, sched_* payloads and
        statedumps. Reads the whole input once (kept for later calls);
        the Source's filters do not apply."""
        return self._src.threads()

    def spans(self, kind="sched"):
        """Spans the model context derives from the events: kind "sched"
        (running + runnable), "running", "runnable", "syscall" (entry/exit
        pairs), "call" (LTTng *_entry/*_exit), "state" (CPEL/elog states)
        or "all". A list of Span(kind, name, begin_ns, end_ns, cpu, pid,
        tid, track, depth, truncated) in order of completion."""
        return [Span(*t) for t in self._src.spans(kind)]

    def symbolize(self, ips, pid, tid=None, kernel=None):
        """Addresses of process pid (thread tid) as [(ip, symbol, offset,
        dso)] with the maps of the whole input (perf.data MMAP/MMAP2 and
        the kernel's); symbol and dso are None where nothing is known.
        kernel: True/False forces the address space, None guesses."""
        return self._src.symbolize(list(ips), pid, tid if tid is not None else -1, kernel)

    def columns(self, names, batch=1_000_000):
        """Yields dicts of numpy arrays, at most `batch` events each.

        Columns: ts, offset, period (uint64), cpu, pid, tid (int32, -1 when
        unknown), name (uint32 codes; the dict's "name.categories" lists the
        names the codes index), field:NAME (int64; INT64_MIN where absent)
        and field:NAME:f (float64; NaN where absent).
        """
        import numpy as np
        names = list(names)
        types = [np.dtype(_column_type(n)) for n in names]
        while True:
            raw = self._src._columns(names, batch)
            if raw is None:
                return
            out = {n: np.frombuffer(raw[n], dtype=t) for n, t in zip(names, types)}
            if "name" in out:
                out["name.categories"] = raw["__names__"]
            yield out


def open(path, **options):
    """Opens a perf.data file, CTF trace directory, CPEL/elog file or DCPI
    profile (format detected from the content; format="ctf" overrides).
    Options: format, all_records, raw_order, fields (copy each event's
    fields so they outlive the next event), context (default True: the
    source feeds a model context, for Event.frames; False skips that work
    when only iterating), and the filters."""
    return Source(path, **options)


def to_pandas(path, columns=("ts", "cpu", "pid", "tid", "name"), **options):
    """One DataFrame of the given columns for the whole input; `name` as a
    pandas Categorical."""
    import numpy as np
    import pandas as pd
    columns = list(columns)
    parts = {c: [] for c in columns}
    categories = []
    with Source(path, **options) as src:
        for batch in src.columns(columns):
            for c in columns:
                parts[c].append(batch[c])
            categories = batch.get("name.categories", categories)
    data = {}
    for c in columns:
        arr = np.concatenate(parts[c]) if parts[c] else np.empty(0, _column_type(c))
        if c == "name":
            arr = pd.Categorical.from_codes(arr.astype("int64"), categories=_unique(categories))
        data[c] = arr
    return pd.DataFrame(data)


def _unique(names):
    # Two event classes may share a name (e.g. in two streams); a Categorical
    # needs unique categories, so later duplicates get a suffix.
    seen, out = {}, []
    for n in names:
        k = seen.get(n, 0)
        seen[n] = k + 1
        out.append(n if k == 0 else "%s#%d" % (n, k))
    return out


_SUFFIXES = {".json": "chrome", ".jsonl": "json", ".cpel": "cpel", ".data": "perf",
             ".folded": "folded", ".prof": "dcpi"}


def convert(inputs, output, to=None, **filters):
    """Converts one or more inputs (merged by time) to `output`; `to` is a
    format name (ctf, perf, cpel, chrome, json, folded), else taken from the
    output's suffix (a directory or no suffix: ctf). It runs what
    `tracekit convert` runs (tk_convert: the same native routes and model
    context, so the bytes are the CLI's). Returns the number of events
    written, or None when a native route (e.g. perf.data to folded or to
    perf.data) wrote the output without counting model events; the output
    appears complete or not at all."""
    if to is None:
        to = _SUFFIXES.get(os.path.splitext(os.fspath(output))[1], "ctf")
    return _tracekit.convert(inputs, os.fspath(output), to, **filters)


def profile(path, by="symbol", events=None):
    """Samples per symbol (or image, address) of a perf.data file or DCPI
    profile: (rows, samples) with rows (event, image, symbol, address,
    weight), weight the summed period as `tracekit report` counts."""
    return _tracekit.profile(os.fspath(path), by, events)


def sql(paths, query, pandas=False, all_records=False):
    """Runs one SQL statement over the tables of `tracekit sql` (event,
    sample, stack_frame, callsite, thread, process, mapping, track, counter,
    sched, thread_state, profile, event_<class>) for one path or a list of
    paths. Returns a list of row tuples, or a pandas DataFrame with the
    query's column names when pandas=True. A damaged input raises
    tracekit.Error with .file and .offset."""
    if isinstance(paths, (str, bytes)) or hasattr(paths, "__fspath__"):
        paths = [paths]
    names, rows = _tracekit.sql([os.fspath(p) for p in paths], query,
                                all_records=all_records)
    if pandas:
        import pandas as pd
        return pd.DataFrame.from_records(rows, columns=list(names))
    return rows


def format_of(path):
    """The format name detected from the content of path."""
    return _tracekit.format_of(os.fspath(path))
