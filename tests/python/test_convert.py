"""tracekit.convert(): outputs read back by tracekit and babeltrace2."""
import json
import shutil
import subprocess
from collections import Counter

import pytest

from conftest import data_path
import tracekit

CTF = ("ctf", "babeltrace", "succeed", "wk-heartbeat-u")


def names(path):
    with tracekit.open(path) as src:
        return [(e.name, e.ts) for e in src]


def test_ctf_to_jsonl_and_back(tmp_path):
    src = data_path(*CTF)
    out = tmp_path / "events.jsonl"
    n = tracekit.convert(src, str(out))
    lines = [json.loads(l) for l in out.read_text().splitlines()]
    assert n == len(lines) == len(names(src))
    assert [l["event"] for l in lines] == [e for e, _ in names(src)]


def test_cpel_to_ctf_read_by_babeltrace2(tmp_path):
    if not shutil.which("babeltrace2"):
        pytest.skip("babeltrace2 not installed")
    src = data_path("cpel", "basic.cpel")
    out = tmp_path / "trace"
    n = tracekit.convert([src], out, to="ctf")
    bt = subprocess.run(["babeltrace2", str(out)], capture_output=True, text=True, check=True)
    assert n == len(bt.stdout.splitlines()) == len(names(src))
    assert names(str(out)) == names(src)


def test_filters_and_errors(tmp_path):
    src = data_path(*CTF)
    out = tmp_path / "few.jsonl"
    assert tracekit.convert(src, out, limit=4) == 4
    with pytest.raises(tracekit.Error) as e:
        tracekit.convert(data_path("cpel", "bad-nsections.cpel"), tmp_path / "x.jsonl")
    assert e.value.offset == 0x238
    assert not (tmp_path / "x.jsonl").exists()     # nothing left behind
    with pytest.raises(ValueError):
        tracekit.convert(src, tmp_path / "y", to="bogus")


def test_convert_and_sql_take_the_same_path_arguments(tmp_path):
    # one helper reads the paths of convert() and sql() (python/tkpy_paths.c):
    # a str, a PathLike, a list or a generator of them; anything else fails
    # the same way in both
    import pathlib
    src = data_path(*CTF)
    want = len(names(src))
    for arg in (lambda: src, lambda: pathlib.Path(src), lambda: [pathlib.Path(src)],
                lambda: (p for p in [src])):
        assert tracekit.convert(arg(), str(tmp_path / "o.jsonl")) == want
        assert tracekit._tracekit.sql(arg(), "SELECT count(*) FROM event") == \
            (("count(*)",), [(want,)])
    msgs = []
    for call in (lambda: tracekit._tracekit.convert(42, str(tmp_path / "x.jsonl"), "json"),
                 lambda: tracekit._tracekit.sql(42, "SELECT 1")):
        with pytest.raises(TypeError) as e:
            call()
        msgs.append(str(e.value))
    assert msgs[0] == msgs[1] == "paths must be a path or a sequence of paths"
    with pytest.raises(ValueError, match="no input"):
        tracekit.convert([], str(tmp_path / "x.jsonl"))
