"""Profiles and statistics of many files on a Dask cluster.

    from dask.distributed import Client
    import tracekit.cluster
    client = Client("tcp://127.0.0.1:8786")
    table = tracekit.cluster.profile(paths, client, by=("dso", "sym"))
    table.rows[:10]      # [(event, dso, sym, weight), ...] heaviest first
    tracekit.cluster.stats(paths, client)
    tracekit.cluster.sql(paths, client,
                         "SELECT name, count(*), sum(period), max(ts) FROM sample GROUP BY name")

Each worker reads its files with tracekit (paths local to it or on shared
storage), a few tasks per worker each covering a share of the files, and
returns a partial table; partial tables are merged pairwise on the workers
(a tree reduction), so the client receives one small table.
Dask reschedules the tasks of a worker that dies, and every task is a pure
function of its file, so a lost worker does not change the result.

Command line (what `tracekit report --scheduler ADDR` and `--workers N`
run): python3 -m tracekit.cluster report [--scheduler ADDR | --workers N]
[--sort symbol|image|address] [--event GLOBS] [--top N] FILE...
"""

import argparse
import functools
import re
import sys
from collections import Counter

import tracekit

_KEYS = {
    ("dso", "sym"): "symbol", ("sym",): "symbol", ("symbol",): "symbol",
    ("dso",): "image", ("image",): "image",
    ("dso", "sym", "addr"): "address", ("address",): "address", ("addr",): "address",
}

# Aggregates an SQL-free cluster job may merge exactly from partial results.
DECOMPOSABLE = ("count", "sum", "min", "max")


class ProfileTable:
    """A merged profile: weights per (event, dso, sym) and samples per event."""

    def __init__(self, weights, samples, key):
        self.weights = weights          # Counter {(event, dso, sym): weight}
        self.samples = samples          # Counter {event: samples}
        self.key = key
        self.dcpi_files = []            # profile(dcpi_db=...): files written

    @property
    def rows(self):
        """(event, dso, sym, weight), heaviest first, then by name (the
        order `tracekit report` uses)."""
        return sorted(((e, d, s, w) for (e, d, s), w in self.weights.items()),
                      key=lambda r: (r[0], -r[3], r[1], r[2] or ""))

    def totals(self):
        t = Counter()
        for (e, _, _), w in self.weights.items():
            t[e] += w
        return t

    def to_pprof(self, path):
        """Writes the table as a gzipped pprof profile (one sample type per
        event, values = summed period; `go tool pprof -top` shows the rows of
        format())."""
        from . import pprof
        events = sorted(set(self.samples) | {k[0] for k in self.weights})
        pprof.write(path, self.weights, events)

    def to_pandas(self):
        import pandas as pd
        return pd.DataFrame(self.rows, columns=["event", "dso", "sym", "weight"])

    def format(self, top=0):
        """The table as `tracekit report` lays it out (one table per event)."""
        out = []
        totals = self.totals()
        out.append("%-22s %8s  %s" % ("Column", "Samples", "Total period (for events)"))
        out.append("%-22s %8s  %s" % ("------", "-------", "------------"))
        for e in sorted(self.samples):
            out.append("%-22s %8d  %d" % (e, self.samples[e], totals[e]))
        for e in sorted(self.samples):
            rows = [r for r in self.rows if r[0] == e]
            if top:
                rows = rows[:top]
            out.append("")
            out.append("%12s %8s %8s  %s  %s" % (e, "%", "cum%", "procedure", "image"))
            cum = 0
            for _, dso, sym, w in rows:
                cum += w
                pct = 100.0 * w / totals[e] if totals[e] else 0.0
                cpct = 100.0 * cum / totals[e] if totals[e] else 0.0
                name = sym if sym is not None else "[unknown]"
                out.append("%12d %7.2f%% %7.2f%%  %s  %s" % (w, pct, cpct, name, dso))
        return "\n".join(out) + "\n"


def _profile_one(path, key, events):
    rows, samples = tracekit.profile(path, key, events)
    weights = Counter()
    for event, image, sym, addr, weight in rows:
        name = sym if key != "address" else "%s+0x%x" % (sym or "", addr)
        weights[(event, image, name)] += weight
    return weights, Counter(samples)


def _merge_profiles(a, b):
    wa, sa = a
    wb, sb = b
    wa = Counter(wa)
    wa.update(wb)
    sa = Counter(sa)
    sa.update(sb)
    return wa, sa


def _stats_one(path, events):
    counts = Counter()
    with tracekit.open(path, events=events) as src:
        for batch in src.columns(["name"]):
            names = batch["name.categories"]
            import numpy as np
            for code, n in enumerate(np.bincount(batch["name"], minlength=len(names))):
                if n:
                    counts[names[code]] += int(n)
    return counts


def _merge_counters(a, b):
    c = Counter(a)
    c.update(b)
    return c


def _chunks(paths, client):
    """The files cut into about 4 tasks per worker: each task reads its
    files one after the other and merges them in place, so the scheduler
    and the reduction handle tens of partial tables, not one per file
    (on a small machine their work competes with the workers'). A lost
    worker's tasks are rescheduled whole."""
    try:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
    except Exception:          # a client without scheduler_info (tests' stand-ins)
        workers = 1
    n = max(1, min(len(paths), workers * 4))
    size = -(-len(paths) // n)
    return [paths[i:i + size] for i in range(0, len(paths), size)]


def _profile_chunk(paths, key, events, one):
    # a worker lives for many tasks: the kernel formats /proc/kallsyms
    # once for it, not once per file (most of a small profile's cost)
    tracekit._tracekit.keep_kallsyms(True)
    weights, samples = Counter(), Counter()
    for p in paths:
        w, n = one(p, key, events)
        weights.update(w)
        samples.update(n)
    return weights, samples


def _stats_chunk(paths, events):
    acc = Counter()
    for p in paths:
        acc.update(_stats_one(p, events))
    return acc


def _dcpi_chunk(paths, events):
    """Partial DCPI profiles of some files: each converted by the library
    as `tracekit convert --to dcpi` does (into a scratch database on the
    worker) and read back, then merged in place (_merge_dcpi)."""
    import os
    import tempfile
    tracekit._tracekit.keep_kallsyms(True)
    acc = {}
    for p in paths:
        with tempfile.TemporaryDirectory(prefix="tk-dcpi-") as tmp:
            db = os.path.join(tmp, "db")
            try:
                tracekit._tracekit.dcpi_convert(p, db, events)
            except tracekit.Error as e:
                if "no samples to write" in str(e):
                    continue    # a file without samples adds nothing
                raise
            part = {}
            for name, fields, counts in tracekit._tracekit.dcpi_read(db):
                key = _dcpi_key(fields)
                # the file name the conversion chose, without its
                # epoch/host directories
                part[key] = [name.rsplit("/", 1)[-1], fields, Counter(counts)]
        acc = _merge_dcpi(acc, part)
    return acc


def _dcpi_key(fields):
    # one merged profile per image (id, path, address range) and event
    return (fields["image"], fields["path"], fields["tstart"], fields["tsize"],
            fields["event"], fields["platform"])


def _merge_dcpi(a, b):
    """Profiles of one (image, event) add up their counts per address; the
    header keeps the newest epoch and, for the period, the sample-weighted
    mean (frequency mode records a mean period per file)."""
    out = dict(a)
    for key, (name, fields, counts) in b.items():
        if key not in out:
            out[key] = [name, dict(fields), Counter(counts)]
            continue
        cur_name, cur, cur_counts = out[key]
        na, nb = sum(cur_counts.values()), sum(counts.values())
        merged = dict(cur)
        if na + nb:
            merged["period"] = (cur["period"] * na + fields["period"] * nb) // (na + nb)
        merged["epoch"] = max(cur["epoch"], fields["epoch"])
        for k in ("cpucount", "cpuspeed"):
            vals = [v for v in (cur.get(k), fields.get(k)) if v is not None]
            merged[k] = max(vals) if vals else None
        total = Counter(cur_counts)
        total.update(counts)
        out[key] = [cur_name, merged, total]
    return out


def write_dcpi(db, profiles, host="cluster"):
    """Writes merged profiles (what _merge_dcpi makes) as a DCPI database
    DB/<newest epoch>/<host>/, through the library's DCPI writer. Returns
    the paths written, in name order."""
    if not profiles:
        raise tracekit.Error("no samples to write as a DCPI database")
    epoch = max(f["epoch"] for _, f, _ in profiles.values())
    taken, written = set(), []
    for key in sorted(profiles, key=lambda k: tuple(str(x) for x in k)):
        name, fields, counts = profiles[key]
        # two profiles may share a name (one image mapped at two
        # addresses in two recordings): -2, -3 ... before the suffix
        stem, n, file = name[:-len(".prof")] if name.endswith(".prof") else name, 1, name
        while file in taken:
            n += 1
            file = "%s-%d.prof" % (stem, n)
        taken.add(file)
        written.append(tracekit._tracekit.dcpi_write(db, epoch, host, file, fields,
                                                     dict(counts)))
    return sorted(written)


def _tree_reduce(client, futures, merge):
    while len(futures) > 1:
        nxt = [client.submit(merge, futures[i], futures[i + 1], pure=False)
               for i in range(0, len(futures) - 1, 2)]
        if len(futures) % 2:
            nxt.append(futures[-1])
        futures = nxt
    return futures[0].result()


def profile(paths, client, by=("dso", "sym"), events=None, _one=None, dcpi_db=None,
            dcpi_host="cluster"):
    """Merged samples per (event, dso, sym) over paths, computed on the
    client's workers. by: ("dso", "sym") (default), ("dso",) or
    ("dso", "sym", "addr").

    dcpi_db=DIR also writes the merged samples as a DCPI profile database
    (pdb-0.07, one profile per image and event, the counts per address of
    `tracekit convert --to dcpi` summed over the files) under
    DIR/<newest epoch>/<dcpi_host>/; the table's .dcpi_files lists them."""
    key = _KEYS.get(tuple(by))
    if key is None:
        raise ValueError("by must be one of %s" % sorted(_KEYS))
    paths = list(paths)
    if not paths:
        return ProfileTable(Counter(), Counter(), key)
    one = _one or _profile_one      # _one: a test's stand-in task
    chunks = _chunks(paths, client)
    futures = [client.submit(_profile_chunk, c, key, events, one, pure=False)
               for c in chunks]
    dcpi = None
    if dcpi_db is not None:
        dcpi = [client.submit(_dcpi_chunk, c, events, pure=False) for c in chunks]
    weights, samples = _tree_reduce(client, futures, _merge_profiles)
    table = ProfileTable(weights, samples, key)
    if dcpi is not None:
        import os
        table.dcpi_files = write_dcpi(os.fspath(dcpi_db),
                                      _tree_reduce(client, dcpi, _merge_dcpi), dcpi_host)
    return table


def stats(paths, client, events=None):
    """Events per name over paths (a Counter), computed on the workers."""
    paths = list(paths)
    if not paths:
        return Counter()
    futures = [client.submit(_stats_chunk, c, events, pure=False)
               for c in _chunks(paths, client)]
    return _tree_reduce(client, futures, _merge_counters)


def check_aggregate(func):
    """Refuses aggregates that cannot be merged from partial results."""
    if func.lower() not in DECOMPOSABLE:
        raise tracekit.Error("aggregate %s() cannot be computed per file and merged; "
                             "use one of %s" % (func, ", ".join(DECOMPOSABLE)))


# Aggregate functions SQLite knows; those outside DECOMPOSABLE are refused.
_AGGREGATES = ("count", "sum", "min", "max", "avg", "total", "group_concat", "string_agg",
               "median", "json_group_array", "json_group_object")
_CALL = re.compile(r"^\s*(\w+)\s*\((.*)\)\s*(?:(?:AS\s+)?[\w\"`\[\]]+)?\s*$", re.I | re.S)


def _top_level_split(text, sep=","):
    parts, depth, cur, quote = [], 0, [], None
    for ch in text:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
            continue
        cur.append(ch)
    parts.append("".join(cur))
    return parts


def _balanced(text):
    depth = 0
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def _select_plan(query):
    """For each result column: None (a group key) or the aggregate that
    merges its per-file values. Refuses what cannot be merged exactly."""
    m = re.match(r"^\s*SELECT\s+(.*?)\s+FROM\s", query, re.I | re.S)
    if not m or re.search(r"\b(LIMIT|HAVING|OFFSET|UNION|INTERSECT|EXCEPT|WINDOW|OVER)\b",
                          query, re.I):
        raise tracekit.Error("a cluster query is one SELECT ... FROM ... [WHERE] [GROUP BY] "
                             "without LIMIT, HAVING, compound or window parts")
    plan = []
    for item in _top_level_split(m.group(1)):
        call = _CALL.match(item)
        if call and not _balanced(call.group(2)):
            call = None          # "f(a) / g(b)": not one call
        func = call.group(1).lower() if call else None
        if func in _AGGREGATES:
            check_aggregate(func)
            if re.match(r"\s*DISTINCT\b", call.group(2), re.I):
                raise tracekit.Error("aggregate %s(DISTINCT ...) cannot be computed per file "
                                     "and merged" % func)
            plan.append(func)
        elif re.search(r"\b(%s)\s*\(" % "|".join(_AGGREGATES), item, re.I):
            raise tracekit.Error("an aggregate inside an expression (%s) cannot be merged "
                                 "from partial results" % item.strip())
        else:
            plan.append(None)
    return plan


def _merge_keyed(plan, a, b):
    out = dict(a)
    for key, vals in b.items():
        if key not in out:
            out[key] = vals
            continue
        cur = list(out[key])
        for i, (func, v) in enumerate(zip([f for f in plan if f], vals)):
            w = cur[i]
            if v is None:
                continue
            if w is None:
                cur[i] = v
            elif func in ("count", "sum"):
                cur[i] = w + v
            elif func == "min":
                cur[i] = min(w, v)
            else:
                cur[i] = max(w, v)
        out[key] = tuple(cur)
    return out


def _keyed(plan, rows):
    out = {}
    for r in rows:
        key = tuple(v for f, v in zip(plan, r) if f is None)
        out[key] = tuple(v for f, v in zip(plan, r) if f is not None)
    return out


def _sql_part(paths, query, plan):
    acc = {}
    for p in paths:
        acc = _merge_keyed(plan, acc, _keyed(plan, tracekit.sql(p, query)))
    return acc


def sql(paths, client, query):
    """One SQL query over many files: run per file on the workers, rows
    merged by their group keys (the non-aggregate columns). Only count,
    sum, min and max merge exactly; other aggregates, DISTINCT inside an
    aggregate, LIMIT and HAVING are refused with tracekit.Error. Returns
    the rows sorted by their group keys."""
    plan = _select_plan(query)
    paths = list(paths)
    if not paths:
        return []
    futures = [client.submit(_sql_part, c, query, plan, pure=False)
               for c in _chunks(paths, client)]
    merged = _tree_reduce(client, futures, functools.partial(_merge_keyed, plan))
    rows = []
    for key in sorted(merged, key=lambda k: tuple((v is None, v) for v in k)):
        ks, vs = iter(key), iter(merged[key])
        rows.append(tuple(next(ks) if f is None else next(vs) for f in plan))
    return rows


def _client(args):
    from dask.distributed import Client, LocalCluster
    if args.scheduler:
        return Client(args.scheduler), None
    cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1,
                           processes=True, host="127.0.0.1", dashboard_address=None)
    return Client(cluster), cluster


def main(argv=None):
    p = argparse.ArgumentParser(prog="tracekit report",
                                description="a profile of many files on a Dask cluster")
    p.add_argument("command", choices=["report", "stats"])
    p.add_argument("--scheduler", help="address of a running Dask scheduler")
    p.add_argument("--workers", type=int, default=0, help="start a local cluster of N workers")
    p.add_argument("--sort", default="symbol", choices=["symbol", "sym", "image", "dso",
                                                         "address", "addr"])
    p.add_argument("--event", "-e", default=None)
    p.add_argument("--top", type=int, default=0)
    p.add_argument("files", nargs="+")
    args = p.parse_args(argv)
    if not args.scheduler and args.workers <= 0:
        p.error("give --scheduler ADDRESS or --workers N")
    by = {"symbol": ("dso", "sym"), "sym": ("dso", "sym"), "image": ("dso",),
          "dso": ("dso",), "address": ("address",), "addr": ("address",)}[args.sort]
    client, cluster = _client(args)
    try:
        if args.command == "report":
            sys.stdout.write(profile(args.files, client, by=by, events=args.event)
                             .format(args.top))
        else:
            for name, n in sorted(stats(args.files, client, args.event).items()):
                sys.stdout.write("%10d  %s\n" % (n, name))
    except tracekit.Error as e:
        sys.stderr.write("tracekit: %s\n" % e)
        return 1
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
