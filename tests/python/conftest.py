"""Shared fixtures: the package under test comes from the build tree
(TK_BUILD_DIR/python, set by ctest) and the CLI from TK."""
import os
import subprocess
import sys

import pytest

BUILD = os.environ.get("TK_BUILD_DIR", os.path.join(os.path.dirname(__file__), "../../build"))
sys.path.insert(0, os.path.join(BUILD, "python"))
TESTDATA = os.environ.get("TK_TESTDATA",
                          os.path.join(os.path.dirname(__file__), "../../../shared/testdata"))
TK = os.environ.get("TK", os.path.join(BUILD, "bin", "tracekit"))


def data_path(*parts):
    p = os.path.join(TESTDATA, *parts)
    if not os.path.exists(p):
        pytest.skip("no test data %s" % p)
    return p


def tk(*args, check=True):
    r = subprocess.run([TK] + list(args), capture_output=True, text=True)
    if check and r.returncode != 0:
        raise AssertionError("tracekit %s: %s" % (" ".join(args), r.stderr))
    return r


def stats_counts(path):
    """Events per name as `tracekit print --format json` sees them (one
    JSON object per event), the CLI's own reading of the file."""
    import json
    from collections import Counter
    out = tk("print", "--format", "json", path).stdout
    return Counter(json.loads(line)["event"] for line in out.splitlines() if line)
