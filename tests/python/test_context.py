"""The model context from Python: Event.frames, Source.threads(),
Source.spans(), Source.symbolize(), checked against perf script on
recordings made here and against the SQL tables of the same context."""
import os
import shutil
import subprocess

import pytest

from conftest import data_path, tk
import tracekit

SOURCE_DIR = os.path.join(os.path.dirname(__file__), "..", "..")


def record(tmp_path, *perf_args):
    if not shutil.which("perf") or not shutil.which("cc"):
        pytest.skip("perf or cc not installed")
    wl = tmp_path / "workload"
    subprocess.run(["cc", "-O1", "-fno-omit-frame-pointer", "-o", str(wl),
                    os.path.join(SOURCE_DIR, "examples", "workload.c")], check=True)
    out = tmp_path / "rec.data"
    r = subprocess.run(["perf", "record", "-q", "-o", str(out)] + list(perf_args) +
                       ["--", str(wl)], capture_output=True, text=True)
    if r.returncode != 0 or not out.exists() or out.stat().st_size == 0:
        pytest.skip("perf cannot record here: " + r.stderr.strip()[:200])
    return str(out)


def perf_script_leaves(path):
    """(tid, leaf symbol) per sample, as perf script prints them."""
    out = subprocess.run(["perf", "script", "-i", path, "-F", "tid,ip,sym"],
                         capture_output=True, text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0].isdigit():
            sym = parts[2] if len(parts) > 2 else "[unknown]"
            rows.append((int(parts[0]), sym))
    return rows


def test_frames_and_symbolize_equal_perf_script(tmp_path):
    path = record(tmp_path, "-F", "2000")
    want = perf_script_leaves(path)
    got, again = [], []
    with tracekit.open(path) as src:
        for ev in src:
            frames = ev.frames
            assert frames and frames[0][0] == ev.fields["perf_ip"]
            got.append((ev.tid, frames[0][1] or "[unknown]"))
            again.append((ev.pid, ev.tid, frames[0]))
        # the whole-input symbolization agrees with each sample's frames
        # where the maps did not change after the sample (one exec here)
        for pid, tid, frame in again[len(again) // 2:]:
            (ip, sym, off, dso), = src.symbolize([frame[0]], pid, tid)
            assert (ip, sym, off, dso) == frame
    assert len(got) == len(want) > 10
    assert got == want
    assert any(sym == "hash_loop" for _, sym in got)


def test_threads_equal_perf_script_comms():
    path = data_path("perf", "quipper", "perf.data.forkexit-3.8")
    out = subprocess.run([shutil.which("perf") or "false", "script", "-i", path, "-F", "comm,tid"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        pytest.skip("perf script cannot read the file")
    last = {}
    for line in out.stdout.splitlines():
        comm, tid = line.rsplit(None, 1)
        last[int(tid)] = comm.strip()
    with tracekit.open(path) as src:
        threads = {t["tid"]: t for t in src.threads()}
    assert last and set(last) <= set(threads)
    assert {tid: threads[tid]["name"] for tid in last} == last
    for t in threads.values():
        if t["pid"] is not None and t["pid"] in threads:
            assert t["process"] == threads[t["pid"]]["name"]


def test_sched_spans_equal_sql_thread_state(tmp_path):
    path = record(tmp_path, "-e", "sched:sched_switch", "-e", "sched:sched_wakeup", "-a")
    with tracekit.open(path) as src:
        spans = src.spans("sched")
        assert {s.kind for s in spans} <= {"running", "runnable"}
        running = src.spans("running")
    assert running and all(s.kind == "running" and s.cpu is not None for s in running)
    got = sorted(("Running" if s.kind == "running" else "R", s.begin_ns, s.end_ns - s.begin_ns,
                  s.tid) for s in spans)
    want = sorted((state, ts, dur, tid) for state, ts, dur, tid in tracekit.sql(
        path, "SELECT state, ts, dur, tid FROM thread_state WHERE state IN ('Running', 'R')"))
    assert got == want


def test_cpel_state_spans():
    path = data_path("cpel", "vpp-small.cpel")
    with tracekit.open(path) as src:
        states = src.spans("state")
        n_events = sum(1 for _ in src)
    # one state per event on a track, until the next event there
    assert states and len(states) <= n_events
    assert all(s.kind == "state" and s.track >= 0 and s.end_ns >= s.begin_ns for s in states)


def test_errors_closed_and_damaged():
    src = tracekit.open(data_path("perf", "quipper", "perf.data.forkexit-3.8"))
    src.close()
    for call in (src.threads, src.spans, lambda: src.symbolize([1], 1)):
        with pytest.raises(tracekit.Error, match="closed"):
            call()
    bad = data_path("perf", "quipper", "perf.data.piped.corrupted.zero_size_sample-3.2")
    with tracekit.open(bad) as src:
        with pytest.raises(tracekit.Error) as e:
            src.threads()
    assert e.value.offset == 0xbfd0 and e.value.file == bad
    with tracekit.open(data_path("cpel", "vpp-small.cpel")) as src:
        with pytest.raises(ValueError, match="unknown span kind"):
            src.spans("nosuch")
    # context=False: the same events, and frames say why they are missing
    perf = data_path("perf", "quipper", "perf.data.forkexit-3.8")
    with tracekit.open(perf) as a, tracekit.open(perf, context=False) as b:
        assert [(e.name, e.ts, e.tid) for e in a] == [(e.name, e.ts, e.tid) for e in b]
    with tracekit.open(perf, context=False) as b:
        with pytest.raises(tracekit.Error, match="context"):
            next(iter(b)).frames


def test_sql_process_cmdline_of_the_recorded_command(tmp_path):
    path = record(tmp_path, "-F", "500")
    header = subprocess.run(["perf", "report", "-i", path, "--header-only"],
                            capture_output=True, text=True).stdout
    cmd = [l.split(":", 1)[1].split() for l in header.splitlines() if l.startswith("# cmdline")]
    assert cmd and cmd[0][-1] == str(tmp_path / "workload")
    rows = tracekit.sql(path, "SELECT name, cmdline FROM process WHERE cmdline IS NOT NULL")
    assert rows == [("workload", str(tmp_path / "workload"))]
