"""Source.columns() and to_pandas(): the same values as iteration."""
import numpy as np
import pytest

from conftest import data_path
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
