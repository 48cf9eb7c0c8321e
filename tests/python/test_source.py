"""tracekit.open(): iteration, info, fields, filters, errors and the
lifetime rules, checked against babeltrace2 and the CLI."""
import os
import shutil
import subprocess
import threading
from collections import Counter

import pytest

from conftest import stats_counts, data_path, tk
import tracekit

PERF = ("perf", "quipper", "perf.data.forkexit-3.8")
CTF = ("ctf", "babeltrace", "succeed", "wk-heartbeat-u")
CPEL = ("cpel", "basic.cpel")


def test_perf_events_and_names_equal_cli():
    path = data_path(*PERF)
    with tracekit.open(path) as src:
        assert src.info["format"] == "perf"
        got = Counter(ev.name for ev in src)
    assert got == stats_counts(path)
    assert sum(got.values()) > 1000


def test_ctf_events_in_babeltrace2_order():
    if not shutil.which("babeltrace2"):
        pytest.skip("babeltrace2 not installed")
    path = data_path(*CTF)
    bt = subprocess.run(["babeltrace2", path], capture_output=True, text=True, check=True)
    # "[17:48:17.586558519] (+?.?????????) host heartbeat:msg: { cpu_id = 2 }, ..."
    want = [line.split(") ", 1)[1].split(" ", 2)[1].rstrip(":") for line in bt.stdout.splitlines()]
    with tracekit.open(path) as src:
        got = [ev.name for ev in src]
    assert got == want
    with tracekit.open(path) as src:
        ev = next(iter(src))
        assert ev.fields["msg"] == "heartbeat"
        assert ev.fields["vtid"] == ev.tid


def test_cpel_counts_equal_cli():
    path = data_path(*CPEL)
    with tracekit.open(path) as src:
        assert src.info["format"] == "cpel"
        got = Counter(ev.name for ev in src)
    assert got == stats_counts(path)


def test_info_has_classes_env_and_clocks():
    with tracekit.open(data_path(*CTF)) as src:
        info = src.info
    assert info["format"] == "ctf"
    assert "heartbeat:msg" in [c["name"] for c in info["event_classes"]]
    assert info["env"].get("domain") == "ust"
    assert info["clocks"] and info["clocks"][0]["frequency"] > 0


def test_fields_live_until_next_event():
    with tracekit.open(data_path(*PERF)) as src:
        it = iter(src)
        first = next(it)
        assert "perf_ip" in first.fields        # current: readable
        kept = first.fields                     # a dict read once stays
        second = next(it)
        assert second.fields["perf_period"] >= 0
        with pytest.raises(tracekit.Error, match="gone"):
            first.stack
        assert kept["perf_ip"] > 0
    with tracekit.open(data_path(*PERF), fields=True) as src:
        events = [ev for _, ev in zip(range(5), src)]
    assert all("perf_ip" in ev.fields for ev in events)


def test_filters_and_limit():
    path = data_path(*CTF)
    with tracekit.open(path) as src:
        all_events = [(ev.ts, ev.cpu, ev.tid) for ev in src]
    cpu = all_events[0][1]
    with tracekit.open(path, cpu=cpu) as src:
        assert [(e.ts, e.cpu, e.tid) for e in src] == [e for e in all_events if e[1] == cpu]
    with tracekit.open(path, limit=3) as src:
        assert len(list(src)) == 3
    with tracekit.open(path, events="nothing*") as src:
        assert list(src) == []
    t0, t1 = all_events[2][0], all_events[5][0]
    with tracekit.open(path, begin_ns=t0, end_ns=t1) as src:
        assert [e.ts for e in src] == [e[0] for e in all_events if t0 <= e[0] <= t1]
    with pytest.raises(TypeError, match="unknown filter"):
        tracekit.open(path, colour="red")
    with pytest.raises(ValueError):
        tracekit.open(path, begin=2, end=1)


def test_bad_file_raises_error_with_offset():
    path = data_path("cpel", "bad-nsections.cpel")
    with pytest.raises(tracekit.Error) as e:
        list(tracekit.open(path))
    assert e.value.file == path
    assert e.value.offset == 0x238
    assert "past the end of the file" in e.value.message
    # the CLI names the same offset
    assert "offset 0x238" in tk("print", path, check=False).stderr


def test_truncated_perf_raises_after_events(tmp_path):
    src_path = data_path(*PERF)
    data = open(src_path, "rb").read()
    cut = tmp_path / "cut.data"
    cut.write_bytes(data[: len(data) * 2 // 3])
    n = 0
    with pytest.raises(tracekit.Error) as e:
        for _ in tracekit.open(str(cut)):
            n += 1
    assert e.value.file.endswith("cut.data")


def test_missing_file():
    with pytest.raises(tracekit.Error) as e:
        tracekit.open("/nonexistent/perf.data")
    assert e.value.offset is None
    assert e.value.file == "/nonexistent/perf.data"


def test_closed_source_raises_not_crashes():
    src = tracekit.open(data_path(*PERF))
    it = iter(src)
    ev = next(it)
    src.close()
    src.close()                 # idempotent
    assert src.closed
    with pytest.raises(tracekit.Error, match="closed"):
        next(it)
    with pytest.raises(tracekit.Error, match="gone"):
        ev.fields
    with pytest.raises(tracekit.Error, match="closed"):
        next(src.columns(["ts"]))
    with pytest.raises(tracekit.Error, match="closed"):
        src.info
    assert ev.name == "cycles"  # scalars were copied


def test_iteration_releases_gil_for_other_threads():
    # Two sources read in two threads at once give the same events as one
    # after the other (each source is independent; decoding drops the GIL).
    path = data_path(*CTF)
    with tracekit.open(path) as src:
        want = [(e.name, e.ts) for e in src]
    results = [None, None]

    def read(i):
        with tracekit.open(path) as s:
            results[i] = [(e.name, e.ts) for e in s]

    threads = [threading.Thread(target=read, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [want, want]


def test_logger_dumps_readable(tmp_path):
    """The in-process logger's mapped file and its dumps (elog, CPEL, CTF)
    read from Python: the 200 events tests/log/log_writer.c logs, with the
    names the CLI reads in each."""
    from conftest import BUILD
    writer = os.path.join(BUILD, "bin", "log_writer")
    if not os.path.exists(writer):
        pytest.skip("log_writer not built")
    subprocess.run([writer, "kinds", str(tmp_path)], check=True)
    for name in ("log.tklog", "log.elog", "log.cpel", "log.ctf"):
        path = str(tmp_path / name)
        with tracekit.open(path) as src:
            got = Counter(ev.name for ev in src)
        assert sum(got.values()) == 200, name
        assert got == stats_counts(path), name
