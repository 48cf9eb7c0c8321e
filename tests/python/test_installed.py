"""The package as `make install` lays it out, imported from the installed
tree only (not the build tree), reads a file and raises tracekit.Error."""
import os
import subprocess
import sys

from conftest import BUILD, data_path


def test_import_from_installed_tree(tmp_path):
    prefix = tmp_path / "prefix"
    subprocess.run(["cmake", "--install", BUILD, "--prefix", str(prefix)], check=True,
                   capture_output=True)
    site = [str(p.parent.parent) for p in prefix.rglob("tracekit/_tracekit*.so")]
    assert len(site) == 1, "the extension is installed once"
    code = (
        "import tracekit, sys\n"
        "assert tracekit.__file__.startswith(sys.argv[2]), tracekit.__file__\n"
        "src = tracekit.open(sys.argv[1])\n"
        "print(src.info['format'], sum(1 for _ in src))\n"
        "try:\n"
        "    tracekit.open('/nonexistent')\n"
        "except tracekit.Error as e:\n"
        "    print('error', e.file)\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = site[0]
    r = subprocess.run([sys.executable, "-c", code, data_path("cpel", "basic.cpel"), str(prefix)],
                       cwd=str(tmp_path), env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    fmt, n = r.stdout.splitlines()[0].split()
    assert fmt == "cpel" and int(n) > 0
    assert r.stdout.splitlines()[1] == "error /nonexistent"
    # Debian's interpreter finds PREFIX/lib/python3.X/dist-packages by itself
    # when PREFIX is /usr/local: that is where the site directory points.
    assert site[0].endswith("-packages")
