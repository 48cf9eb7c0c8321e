"""The package as `make install` lays it out, imported from the installed
tree only (not the build tree), reads a file and raises tracekit.Error;
then every call (threads, spans, symbolize, Event.frames, sql, columns,
to_pprof, the cluster's profile with a DCPI database, stats and sql on a
Dask worker process) gives what the build tree's package gives."""
import json
import os
import subprocess
import sys
from collections import Counter

import pytest

from conftest import BUILD, TESTDATA, data_path, stats_counts


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """`cmake --install` into a fresh prefix, once for the module."""
    prefix = tmp_path_factory.mktemp("install") / "prefix"
    subprocess.run(["cmake", "--install", BUILD, "--prefix", str(prefix)], check=True,
                   capture_output=True)
    site = [str(p.parent.parent) for p in prefix.rglob("tracekit/_tracekit*.so")]
    assert len(site) == 1, "the extension is installed once"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = site[0]
    return prefix, site, env


def test_import_from_installed_tree(tmp_path, installed):
    prefix, site, env = installed
    code = (
        "import tracekit, sys\n"
        "assert tracekit.__file__.startswith(sys.argv[2]), tracekit.__file__\n"
        "src = tracekit.open(sys.argv[1])\n"
        "print(src.info['format'], sum(1 for _ in src))\n"
        "try:\n"
        "    tracekit.open('/nonexistent')\n"
        "except tracekit.Error as e:\n"
        "    print('error', e.file)\n")
    r = subprocess.run([sys.executable, "-c", code, data_path("cpel", "basic.cpel"), str(prefix)],
                       cwd=str(tmp_path), env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    fmt, n = r.stdout.splitlines()[0].split()
    assert fmt == "cpel" and int(n) > 0
    assert r.stdout.splitlines()[1] == "error /nonexistent"
    # Debian's interpreter finds PREFIX/lib/python3.X/dist-packages by itself
    # when PREFIX is /usr/local: that is where the site directory points.
    assert site[0].endswith("-packages")


def test_every_call_from_installed_tree(tmp_path, installed):
    pytest.importorskip("distributed")
    for parts in (("perf", "pdc", "with-callchain.perf.data"), ("cpel", "vpp-small.cpel"),
                  ("ctf", "babeltrace", "succeed", "wk-heartbeat-u")):
        data_path(*parts)
    prefix, _, env = installed
    inst_out, build_out = tmp_path / "installed", tmp_path / "build"
    inst_out.mkdir()
    build_out.mkdir()
    script = os.path.join(os.path.dirname(__file__), "installed_calls.py")
    # cwd and PYTHONPATH hold no build tree: only the prefix's package
    r = subprocess.run([sys.executable, script, str(prefix), TESTDATA, str(inst_out)],
                       cwd=str(tmp_path), env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]
    got = json.loads(r.stdout)
    import installed_calls
    want = json.loads(json.dumps(installed_calls.run_all(
        TESTDATA, str(build_out), installed_calls.InPlaceClient())))
    assert sorted(got) == sorted(want)
    for k in want:
        assert got[k] == want[k], k
    # and what they hold is not empty (a broken install cannot pass as
    # two empty results): the CLI's own counts for sql and the columns
    ctf = data_path("ctf", "babeltrace", "succeed", "wk-heartbeat-u")
    assert Counter(dict(got["sql"])) == stats_counts(ctf)
    assert Counter(got["columns"]["name"]) == stats_counts(ctf)
    assert got["threads"] and got["spans"] and got["frames"] and got["symbolize"]
    assert got["profile"] and got["dcpi"] and got["pprof_bytes"] > 0 and got["stats"]
