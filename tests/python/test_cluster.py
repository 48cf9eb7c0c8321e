"""tracekit.cluster on a real Dask scheduler and two worker processes on
loopback: 200 recordings aggregated equal the single-process `tracekit
report` of the same files, also when a worker is killed mid-job."""
import functools
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections import Counter

import pytest

from conftest import BUILD, data_path, tk
import tracekit
import tracekit.cluster

distributed = pytest.importorskip("distributed")

SOURCES = [("perf", "quipper", n) for n in (
    "perf.data.forkexit-3.8", "perf.data.busy.0-3.4", "perf.data.systemwide.0-3.4",
    "perf.data.remmap-3.2", "perf.data.callgraph_and_branch-3.8")]
ROW = re.compile(r"^\s*(\d+)\s+[\d.]+%\s+[\d.]+%\s+(.*?)\s*$")


@pytest.fixture(scope="module")
def recordings(tmp_path_factory):
    d = tmp_path_factory.mktemp("recordings")
    paths = []
    for i in range(200):
        src = data_path(*SOURCES[i % len(SOURCES)])
        dst = d / ("r%03d.data" % i)
        shutil.copyfile(src, dst)
        paths.append(str(dst))
    return paths


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(pred, what, limit=120):
    # Polls a condition the test itself waits on (a process being up); the
    # limit only turns a hang into a failure, the result never depends on it.
    deadline = time.monotonic() + limit
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError("gave up waiting for " + what)
        time.sleep(0.2)


@pytest.fixture()
def cluster(tmp_path):
    port = free_port()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(BUILD, "python"),
                                         os.path.dirname(__file__),
                                         env.get("PYTHONPATH", "")])
    env["DASK_DISTRIBUTED__WORKER__DAEMON"] = "False"
    common = ["--no-dashboard"]
    procs = {}
    log = open(tmp_path / "dask.log", "w")
    procs["scheduler"] = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
         "--port", str(port)] + common, env=env, stdout=log, stderr=log)
    addr = "tcp://127.0.0.1:%d" % port
    for name in ("victim", "survivor"):
        procs[name] = subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", addr, "--name", name,
             "--nthreads", "1", "--nworkers", "1", "--host", "127.0.0.1", "--no-nanny"]
            + common, env=env, stdout=log, stderr=log)
    client = distributed.Client(addr, timeout=60)
    try:
        wait_for(lambda: len(client.scheduler_info()["workers"]) == 2, "two workers")
        yield client, procs, addr
    finally:
        client.close()
        for p in procs.values():
            if p.poll() is None:
                p.terminate()
        for p in procs.values():
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        log.close()


def single_process_images(paths):
    """Weights per (image) summed over the per-file tables of one
    `tracekit report --sort image` run over all the files."""
    out = tk("report", "--sort", "image", *paths).stdout
    weights = Counter()
    in_table = False
    for line in out.splitlines():
        if line.startswith("==="):
            in_table = True
            continue
        if line.startswith("== "):
            in_table = False
            continue
        m = ROW.match(line) if in_table else None
        if m:
            name = m.group(2)
            # "procedure  image" columns: a per-image table names the image
            # in the last column.
            weights[name.split("  ")[-1]] += int(m.group(1))
    return weights


def cluster_images(table):
    w = Counter()
    for (_, dso, _), weight in table.weights.items():
        w[dso] += weight
    return w


def test_profile_equals_single_process_report(cluster, recordings):
    client, _, _ = cluster
    table = tracekit.cluster.profile(recordings, client, by=("dso",))
    assert cluster_images(table) == single_process_images(recordings)
    # by symbol: the same totals, and the same rows as the library in-process
    by_sym = tracekit.cluster.profile(recordings, client)
    local = Counter()
    for p in recordings:
        w, _ = tracekit.cluster._profile_one(p, "symbol", None)
        local.update(w)
    assert by_sym.weights == local
    assert sum(by_sym.weights.values()) == sum(table.weights.values())


def test_stats_equal_single_process(cluster, recordings):
    client, _, _ = cluster
    got = tracekit.cluster.stats(recordings[:20], client)
    want = Counter()
    for p in recordings[:20]:
        with tracekit.open(p) as src:
            want.update(ev.name for ev in src)
    assert got == want


def test_killed_worker_does_not_change_result(cluster, recordings, tmp_path):
    client, procs, _ = cluster
    import cluster_hooks
    marker = str(tmp_path / "victim-holds-a-task")
    one = functools.partial(cluster_hooks.blocking_profile_one, marker=marker)
    import threading
    result = {}

    def run():
        result["table"] = tracekit.cluster.profile(recordings, client, by=("dso",), _one=one)

    t = threading.Thread(target=run)
    t.start()
    wait_for(lambda: os.path.exists(marker), "the victim to hold a task")
    procs["victim"].send_signal(signal.SIGKILL)
    t.join(600)
    assert not t.is_alive()
    assert cluster_images(result["table"]) == single_process_images(recordings)


def test_cli_report_workers_and_scheduler(cluster, recordings):
    _, _, addr = cluster
    files = recordings[:10]
    for how in (["--scheduler", addr], ["--workers", "2"]):
        r = tk("report", "--sort", "image", *how, *files)
        got = Counter()
        for line in r.stdout.splitlines():
            m = ROW.match(line)
            if m:
                got[m.group(2).split("  ")[-1]] += int(m.group(1))
        assert got == single_process_images(files)


def test_non_decomposable_aggregate_refused():
    tracekit.cluster.check_aggregate("sum")
    with pytest.raises(tracekit.Error, match="cannot be computed per file"):
        tracekit.cluster.check_aggregate("median")


def test_sql_decomposable_query_equals_one_process(cluster, recordings):
    client, _, _ = cluster
    files = recordings[:20]
    q = ("SELECT event, cpu, count(*), sum(period), min(ts), max(ts) FROM sample "
         "GROUP BY event, cpu")
    got = tracekit.cluster.sql(files, client, q)
    # the same query over all the files at once, in one process
    want = tracekit.sql(files, q + " ORDER BY event, cpu IS NULL, cpu")
    assert got == want and len(got) > 1
    # no GROUP BY: one row of totals
    (n,), = tracekit.cluster.sql(files, client, "SELECT count(*) FROM event")
    assert n == tracekit.sql(files, "SELECT count(*) FROM event")[0][0]


def test_sql_refuses_what_cannot_be_merged():
    for q in ("SELECT avg(period) FROM sample", "SELECT count(DISTINCT tid) FROM sample",
              "SELECT name, count(*) FROM event GROUP BY name LIMIT 3",
              "SELECT sum(period) / count(*) FROM sample"):
        with pytest.raises(tracekit.Error, match="cannot|LIMIT"):
            tracekit.cluster.sql(["x.data"], None, q)


def test_profile_to_pprof_read_by_go_pprof(cluster, recordings, tmp_path):
    if not shutil.which("go") or subprocess.run(["go", "tool", "-n", "pprof"],
                                                capture_output=True).returncode != 0:
        pytest.skip("go tool pprof is not installed (Debian golang-go)")
    client, _, _ = cluster
    table = tracekit.cluster.profile(recordings[:20], client)
    out = tmp_path / "merged.pb.gz"
    table.to_pprof(str(out))
    env = dict(os.environ, HOME=str(tmp_path), GOCACHE=str(tmp_path / "gocache"),
               GOFLAGS="-mod=mod", GOTOOLCHAIN="local", PPROF_TMPDIR=str(tmp_path))
    for event in sorted(table.totals()):
        r = subprocess.run(["go", "tool", "pprof", "-top", "-nodecount=1000000",
                            "-nodefraction=0", "-sample_index=" + event, str(out)],
                           capture_output=True, text=True, env=env, check=True)
        got = Counter()
        for line in r.stdout.splitlines():
            m = re.match(r"^\s*(\d+)\s+[\d.e+-]+%\s+[\d.e+-]+%\s+\d+\s+[\d.e+-]+%\s+(.*?)\s*$", line)
            if m:
                got[m.group(2)] += int(m.group(1))
        want = Counter()
        for (e, _, sym), w in table.weights.items():
            if e == event and w:
                want[sym or "[unknown]"] += w
        assert got == want, event


SUMMARY = re.compile(r"^([A-Za-z][\w:.-]*)\s+(\d+)\s+(\d+)$")


def dcpi_print_counts(path):
    """Counts per (image, path, event, tstart, tsize, offset) as `tracekit
    print` shows every profile of a DCPI database."""
    out = tk("print", path).stdout
    counts, head = Counter(), {}
    for line in out.splitlines():
        if line.startswith("==> "):
            head = {}
        elif line.startswith("0x"):
            addr, n = line.split()
            key = (head["image"], head.get("path"), head["event"], head["tstart"],
                   head["tsize"], int(addr, 16))
            counts[key] += int(n)
        elif " " in line:
            k, v = line.split(None, 1)
            head[k] = v
    return counts


def report_samples(*paths):
    """Samples per event from the summary lines of `tracekit report`."""
    got = Counter()
    for line in tk("report", *paths).stdout.splitlines():
        m = SUMMARY.match(line)
        if m:
            got[m.group(1)] += int(m.group(2))
    return got


def test_profile_writes_merged_dcpi_database(cluster, recordings, tmp_path):
    client, _, _ = cluster
    files = recordings[:20]
    db = tmp_path / "merged"
    table = tracekit.cluster.profile(files, client, dcpi_db=str(db))
    assert table.dcpi_files and all(os.path.exists(p) for p in table.dcpi_files)
    assert all("/cluster/" in p for p in table.dcpi_files)
    # the CLI converts each file on its own; its profiles, summed, are the
    # merged database's (the same images, events, addresses and counts)
    want = Counter()
    for i, f in enumerate(files):
        one = tmp_path / ("one%02d" % i)
        tk("convert", "--to", "dcpi", "-o", str(one), f)
        want.update(dcpi_print_counts(str(one)))
    got = dcpi_print_counts(str(db))
    assert got == want and len(got) > 10
    # and `tracekit report` on it counts every sample of the recordings
    merged = report_samples(str(db))
    assert merged == report_samples(*files) == table.samples and sum(merged.values()) > 0
    # profiles of one image and event merge: fewer files than the inputs'
    assert len(table.dcpi_files) < sum(1 for _ in tmp_path.glob("one*/*/*/*.prof"))


def test_dcpi_database_errors(tmp_path):
    bad = tmp_path / "bad.data"
    bad.write_bytes(b"PERFILE2" + b"\0" * 200)
    with pytest.raises(tracekit.Error) as e:
        tracekit.cluster._dcpi_chunk([str(bad)], None)
    assert e.value.file == str(bad)
    with pytest.raises(tracekit.Error, match="no samples"):
        tracekit.cluster.write_dcpi(str(tmp_path / "db"), {})
