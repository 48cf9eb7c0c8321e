"""Every call of the package, run the same way from the installed tree (a
subprocess, test_installed.py) and from the build tree (in pytest), so the
two can be compared: `python3 installed_calls.py PREFIX TESTDATA OUT_DIR`
prints the results as JSON. With PREFIX, the cluster calls go to a real
Dask LocalCluster (one worker process, which imports the installed
package); without, to a client that runs each task in place."""
import gzip
import json
import os
import sys
from collections import Counter


class InPlaceClient:
    """Runs each submitted task at once (the same functions, no Dask)."""

    class Done:
        def __init__(self, value):
            self.value = value

        def result(self):
            return self.value

    def submit(self, fn, *args, pure=True):
        args = [a.value if isinstance(a, self.Done) else a for a in args]
        return self.Done(fn(*args))


def run_all(testdata, out_dir, client):
    import tracekit
    import tracekit.cluster
    perf = os.path.join(testdata, "perf", "pdc", "with-callchain.perf.data")
    forkexit = os.path.join(testdata, "perf", "quipper", "perf.data.forkexit-3.8")
    busy = os.path.join(testdata, "perf", "quipper", "perf.data.busy.0-3.4")
    ctf = os.path.join(testdata, "ctf", "babeltrace", "succeed", "wk-heartbeat-u")
    cpel = os.path.join(testdata, "cpel", "vpp-small.cpel")
    r = {}
    with tracekit.open(forkexit) as src:
        r["threads"] = sorted([t["tid"], t["name"]] for t in src.threads())
    with tracekit.open(cpel) as src:
        r["spans"] = [list(s) for s in src.spans("state")]
    with tracekit.open(perf) as src:
        first = next(iter(src))
        r["frames"] = [list(f) for f in first.frames]
        r["symbolize"] = [list(f) for f in src.symbolize([f[0] for f in first.frames],
                                                           first.pid, first.tid)]
    r["sql"] = sorted(list(row) for row in
                      tracekit.sql(ctf, "SELECT name, count(*) FROM event GROUP BY name"))
    with tracekit.open(ctf) as src:
        cols = {"ts": [], "cpu": [], "name": []}
        for b in src.columns(["ts", "cpu", "name"], batch=5):
            cats = b["name.categories"]
            cols["ts"] += b["ts"].tolist()
            cols["cpu"] += b["cpu"].tolist()
            cols["name"] += [cats[c] for c in b["name"]]
    r["columns"] = cols
    files = [perf, forkexit, busy]
    table = tracekit.cluster.profile(files, client, dcpi_db=os.path.join(out_dir, "dcpi"))
    r["profile"] = sorted([list(k) + [w] for k, w in table.weights.items()])
    r["dcpi"] = sorted([os.path.relpath(p, out_dir) for p in table.dcpi_files])
    r["dcpi_counts"] = sorted([n, f["event"], sorted(c.items())] for n, f, c in
                              tracekit._tracekit.dcpi_read(os.path.join(out_dir, "dcpi")))
    pprof = os.path.join(out_dir, "merged.pb.gz")
    table.to_pprof(pprof)
    with gzip.open(pprof) as f:
        r["pprof_bytes"] = len(f.read())
    r["stats"] = sorted(tracekit.cluster.stats(files, client).items())
    r["cluster_sql"] = [list(x) for x in tracekit.cluster.sql(
        files, client, "SELECT event, count(*), sum(period) FROM sample GROUP BY event")]
    return r


def main():
    prefix, testdata, out_dir = sys.argv[1:4]
    import tracekit
    assert tracekit.__file__.startswith(prefix), tracekit.__file__
    from dask.distributed import Client, LocalCluster
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as lc, Client(lc) as client:
        # the worker process imports the installed package too
        where = client.run(lambda: __import__("tracekit").__file__)
        assert all(w.startswith(prefix) for w in where.values()), where
        r = run_all(testdata, out_dir, client)
    json.dump(r, sys.stdout)


if __name__ == "__main__":
    main()
