#!/usr/bin/env python3
"""Two builds of tracekit's perf-script print of the 50 MB recording, in
interleaved pairs, each run placed as the interleaved bench places it:
MODE cold  - symbol cache emptied, right after a `perf script` of the file
     warm  - symbol cache kept, right after a `perf script` of the file
     back  - symbol cache emptied, no perf script in between
Wall time and the run's own user and system CPU time (getrusage of the
child): on this VM a run's extra cost after perf script is system time,
page faults on memory the host took back (bench/README, sessions 36-38),
so system time shows a change in fresh memory where wall time is noisy.

Usage: bench/ab_after_perf.py BINARY_A BINARY_B PAIRS MODE
Prints best and median of each, how many runs were under 75 ms (the
20x line of perf script's 1.51 s on this machine's file) and in how many
pairs B's wall time was lower."""
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

if len(sys.argv) != 5 or sys.argv[4] not in ("cold", "warm", "back"):
    sys.exit(__doc__)
a, b, n, mode = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
here = os.path.dirname(os.path.abspath(__file__))
big = os.path.join(here, "work", "perfscript-sizes-50mb.data")
if not os.path.exists(big):
    sys.exit("no %s: run bench/perfscript_sizes_bench.sh 50 first" % big)
cache = tempfile.mkdtemp(prefix="tk-ab-after-")  # never the user's cache
env = dict(os.environ, XDG_CACHE_HOME=cache)


def run(argv):
    """(wall, user, sys) in ms of one run of argv"""
    with open(os.devnull, "w") as null:
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(argv, stdout=null, stderr=null, env=env, check=False)
        wall = (time.perf_counter() - t0) * 1000
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        return wall, (r1.ru_utime - r0.ru_utime) * 1000, (r1.ru_stime - r0.ru_stime) * 1000


ta, tb = [], []
run([a, "print", "--format", "perf-script", big])  # the file in the page cache
for i in range(n):
    for binary, times in ((a, ta), (b, tb)) if i % 2 == 0 else ((b, tb), (a, ta)):
        if mode != "back":
            run(["perf", "script", "-i", big])
        if mode != "warm":
            shutil.rmtree(os.path.join(cache, "tracekit"), ignore_errors=True)
        times.append(run([binary, "print", "--format", "perf-script", big]))
shutil.rmtree(cache, ignore_errors=True)


def summary(v, k):
    return "best %.1f med %.1f" % (min(x[k] for x in v), statistics.median(x[k] for x in v))


for k, name in ((0, "wall"), (1, "user"), (2, "sys")):
    print("%s %-4s ms: A %s | B %s" % (mode, name, summary(ta, k), summary(tb, k)))
print("%s runs under 75 ms: A %d, B %d of %d; B's wall lower in %d of %d pairs" % (
    mode, sum(1 for x in ta if x[0] < 75), sum(1 for x in tb if x[0] < 75), n,
    sum(1 for x, y in zip(ta, tb) if y[0] < x[0]), n))
