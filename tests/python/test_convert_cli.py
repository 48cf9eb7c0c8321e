"""tracekit.convert() is `tracekit convert`: the same library call
(tk_convert), so the same bytes for native routes (perf -> folded) and for
the model pipeline with the model context (JSON lines with comm and
symbolized callchains, Chrome JSON)."""
import pytest

from conftest import data_path, tk
import tracekit

PERF = ("perf", "lpd", "sleep.data")
CTF = ("ctf", "babeltrace", "succeed", "wk-heartbeat-u")


@pytest.mark.parametrize("src,to,name", [
    (PERF, "folded", "out.folded"),
    (PERF, "json", "out.jsonl"),
    (PERF, "chrome", "out.json"),
    (CTF, "json", "out.jsonl"),
])
def test_same_bytes_as_cli(tmp_path, src, to, name):
    path = data_path(*src)
    mine, theirs = tmp_path / ("py-" + name), tmp_path / ("cli-" + name)
    n = tracekit.convert(path, mine, to=to)
    tk("convert", path, "-o", str(theirs), "--to", to)
    assert mine.read_bytes() == theirs.read_bytes()
    assert mine.stat().st_size > 0
    if to == "folded":
        assert n is None            # a native route: no event count
    else:
        assert n > 0


def test_filters_reach_the_routes(tmp_path):
    path = data_path(*PERF)
    mine, theirs = tmp_path / "py.jsonl", tmp_path / "cli.jsonl"
    assert tracekit.convert(path, mine, to="json", limit=3, cpu=0) <= 3
    tk("convert", path, "-o", str(theirs), "--to", "json", "--limit", "3", "--cpu", "0")
    assert mine.read_bytes() == theirs.read_bytes()
