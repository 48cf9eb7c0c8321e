"""Source.columns() and to_pandas(): the same values as iteration."""
import numpy as np
import pytest

from conftest import data_path
import ctf_gen
import tracekit

PERF = ("perf", "quipper", "perf.data.forkexit-3.8")
CTF = ("ctf", "babeltrace", "succeed", "wk-heartbeat-u")


def iterated(path):
    rows = []
    with tracekit.open(path) as src:
        for ev in src:
            f = ev.fields
            rows.append((ev.ts, ev.cpu, ev.tid, ev.name, f.get("perf_period", 0),
                         f.get("perf_ip")))
    return rows


@pytest.mark.parametrize("batch", [7, 1000000])
def test_perf_columns_equal_iteration(batch):
    path = data_path(*PERF)
    want = iterated(path)
    got = []
    with tracekit.open(path) as src:
        for b in src.columns(["ts", "cpu", "tid", "name", "period", "field:perf_ip"], batch=batch):
            assert b["ts"].dtype == np.uint64 and b["cpu"].dtype == np.int32
            assert len(b["ts"]) <= batch
            names = b["name.categories"]
            for i in range(len(b["ts"])):
                got.append((int(b["ts"][i]), int(b["cpu"][i]), int(b["tid"][i]),
                            names[b["name"][i]], int(b["period"][i]),
                            int(b["field:perf_ip"][i]) & (2**64 - 1)))
    assert got == want


def test_field_columns_missing_and_float():
    path = data_path(*CTF)
    with tracekit.open(path) as src:
        b = next(src.columns(["field:vtid", "field:vtid:f", "field:nosuch", "field:nosuch:f"]))
    assert (b["field:vtid"] > 0).all()
    assert (b["field:vtid"].astype(float) == b["field:vtid:f"]).all()
    assert (b["field:nosuch"] == np.iinfo(np.int64).min).all()
    assert np.isnan(b["field:nosuch:f"]).all()


def test_columns_filters_and_unknown_column():
    path = data_path(*CTF)
    with tracekit.open(path, limit=5) as src:
        assert sum(len(b["ts"]) for b in src.columns(["ts"], batch=2)) == 5
    with tracekit.open(path) as src:
        with pytest.raises(ValueError, match="unknown column"):
            next(src.columns(["colour"]))


def test_to_pandas():
    path = data_path(*PERF)
    df = tracekit.to_pandas(path, ["ts", "tid", "name", "period"])
    want = iterated(path)
    assert len(df) == len(want)
    assert str(df["name"].dtype) == "category"
    assert df["period"].sum() == sum(r[4] for r in want)
    assert list(df["ts"][:10]) == [r[0] for r in want[:10]]


def _model_columns(path, names, **kw):
    # field:__none__ keeps the model path (a payload column), so the lean
    # reader is compared with the reader every other call uses
    out = {n: [] for n in names}
    cats = []
    with tracekit.open(path, **kw) as src:
        for b in src.columns(names + ["field:__none__"], batch=100000):
            for n in names:
                out[n].extend(b[n].tolist())
            cats = b.get("name.categories", cats)
    return out, cats


def _lean_columns(path, names, batch=100000, **kw):
    out = {n: [] for n in names}
    cats = []
    with tracekit.open(path, **kw) as src:
        for b in src.columns(names, batch=batch):
            for n in names:
                out[n].extend(b[n].tolist())
            cats = b.get("name.categories", cats)
    return out, cats


def _named(cols, cats):
    return [cats[c] for c in cols["name"]] if "name" in cols else None


LEAN_INPUTS = [
    (PERF, ["ts", "offset", "period", "cpu", "pid", "tid", "name"]),
    (("perf", "pdc", "with-callchain.perf.data"), ["ts", "period", "tid", "name"]),
    (("perf", "quipper", "perf.data.systemwide.0-3.4"), ["ts", "cpu", "pid", "name"]),
    (CTF, ["ts", "offset", "cpu", "name"]),
    (("ctf", "babeltrace", "succeed", "multi-domains"), ["ts", "cpu", "name"]),
    (("ctf", "babeltrace", "succeed", "ev-disc-no-ts-begin-end"), ["ts", "cpu", "name"]),
    (("ctf", "babeltrace", "succeed", "wk-heartbeat-u"), ["name"]),
]


@pytest.mark.parametrize("parts,names", LEAN_INPUTS)
def test_header_columns_from_lean_reader_equal_model(parts, names):
    path = data_path(*parts)
    model, mcats = _model_columns(path, names)
    lean, lcats = _lean_columns(path, names)
    assert len(lean[names[0]]) == len(model[names[0]]) > 0
    for n in names:
        if n != "name":
            assert lean[n] == model[n], n
    assert _named(lean, lcats) == _named(model, mcats)
    # batches that end inside and on the edge of the reader's 4096-row
    # chunks, and a repeated column (the per-event path), give the same
    for batch in (7, 4096, 4097):
        assert _lean_columns(path, names, batch=batch) == (lean, lcats), batch
    with tracekit.open(path) as src:
        rep = [b[names[0]].tolist() for b in src.columns(names + [names[0]], batch=100000)]
    assert sum(rep, []) == lean[names[0]]
    # filters apply the same way
    cpu = [c for c in model.get("cpu", [0]) if c >= 0][:1] or [0]
    for kw in ({"cpu": cpu[0]}, {"limit": 5}, {"events": "nothing*"}):
        m, mc = _model_columns(path, names, **kw)
        le, lc = _lean_columns(path, names, **kw)
        assert le == m or (_named(le, lc) == _named(m, mc) and
                           all(le[n] == m[n] for n in names if n != "name"))


def test_lean_source_refuses_iteration_and_other_columns():
    src = tracekit.open(data_path(*CTF))
    next(src.columns(["ts", "name"], batch=3))
    with pytest.raises(tracekit.Error, match="open the file again"):
        next(iter(src))
    with pytest.raises(tracekit.Error, match="open the file again"):
        next(src.columns(["field:msg"]))
    src.close()
    with pytest.raises(tracekit.Error, match="closed"):
        next(src.columns(["ts"]))


def test_lean_damaged_inputs_fail_like_model(tmp_path):
    import shutil
    for parts in (("perf", "quipper", "perf.data.piped.corrupted.zero_size_sample-3.2"),):
        path = data_path(*parts)
        errs = []
        for names in (["ts", "name"], ["ts", "name", "field:__none__"]):
            with pytest.raises(tracekit.Error) as e:
                for _ in tracekit.open(path).columns(names):
                    pass
            errs.append((e.value.file, e.value.offset, e.value.message))
        assert errs[0] == errs[1] and errs[0][1] is not None
    # a CTF stream cut in the middle of a packet
    src = data_path(*CTF)
    d = tmp_path / "cut"
    shutil.copytree(src, d)
    stream = max((p for p in d.iterdir() if p.name != "metadata" and p.is_file()),
                 key=lambda p: p.stat().st_size)
    data = stream.read_bytes()
    stream.write_bytes(data[: len(data) // 2 + 3])
    errs = []
    for names in (["ts", "name"], ["ts", "name", "field:__none__"]):
        # a second call after the error fails the same way too
        src = tracekit.open(str(d))
        for _ in range(2):
            try:
                for _ in src.columns(names):
                    pass
                errs.append(None)
            except tracekit.Error as e:
                errs.append((e.file, e.offset, e.message))
    assert errs[:2] == errs[2:] and errs[0] is not None and errs[0][1] is not None


def test_column_arrays_are_writable_and_outlive_the_source():
    path = data_path(*CTF)
    with tracekit.open(path) as src:
        b = next(src.columns(["ts", "name"], batch=3000000))
    first = int(b["ts"][0])
    b["ts"][0] = first + 1  # numpy owns a view of the column buffer
    assert int(b["ts"][0]) == first + 1 and len(b["ts"]) > 0


# Generated CTF traces (ctf_gen.py) whose events the lean reader decodes
# by the fast path between merge decisions (src/ctf/ctf_columns.c), and
# the cases where it must hand an event back to the interpreter and the
# merge. Each is read by iteration, by the model columns and by the lean
# columns, at batch sizes that end inside and on the edge of the 4096-row
# chunks; rows and warnings must be the same.
def _generated(tmp_path, name):
    d = str(tmp_path / name)
    return d, ctf_gen.write_case(d, name)


def _iterated_ctf(path):
    with tracekit.open(path) as src:
        rows = [(ev.ts, ev.cpu, ev.name) for ev in src]
        return rows, src.warnings


@pytest.mark.parametrize("name", sorted(ctf_gen.CASES))
def test_generated_ctf_lean_columns_equal_iteration(tmp_path, name):
    path, n = _generated(tmp_path, name)
    want, want_warnings = _iterated_ctf(path)
    assert len(want) == n
    names = ["ts", "cpu", "name", "offset"]
    model, mcats = _model_columns(path, names)
    for batch in (7, 4096, 100000):
        with tracekit.open(path) as src:
            got = {c: [] for c in names}
            for b in src.columns(names, batch=batch):
                cats = b["name.categories"]
                for c in ("ts", "cpu", "offset"):
                    got[c].extend(b[c].tolist())
                got["name"].extend(cats[k] for k in b["name"].tolist())
            warnings = src.warnings
        assert list(zip(got["ts"], got["cpu"], got["name"])) == want, batch
        assert got["offset"] == model["offset"], batch
        assert warnings == want_warnings, batch
    if name == "backwards-outside-discarded":
        assert any("backwards" in w for w in want_warnings)
        assert any("outside" in w for w in want_warnings)
        assert any("discarded" in w.lower() for w in want_warnings)


@pytest.mark.parametrize("name", ["three-streams-ties", "interpreter-stream", "two-traces"])
def test_generated_ctf_field_columns_equal_iteration(tmp_path, name):
    path, _ = _generated(tmp_path, name)
    fields = ["x", "y", "z", "n"]
    with tracekit.open(path) as src:
        want = [(ev.ts, ev.name) + tuple(ev.fields.get(f) for f in fields) for ev in src]
    cols = ["ts", "name"] + ["field:" + f for f in fields] + ["field:x:f"]
    got = []
    with tracekit.open(path) as src:
        for b in src.columns(cols, batch=1000):
            cats = b["name.categories"]
            for i in range(len(b["ts"])):
                vals = tuple(None if int(b["field:" + f][i]) == np.iinfo(np.int64).min
                             else int(b["field:" + f][i]) for f in fields)
                x = float(b["field:x:f"][i])
                assert (np.isnan(x) and vals[0] is None) or x == vals[0]
                got.append((int(b["ts"][i]), cats[b["name"][i]]) + vals)
    assert got == want
