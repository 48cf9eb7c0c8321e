#!/usr/bin/env python3
"""A perf-script run of tracekit on the 50 MB recording, timed run by run,
to show what comes before it costs (bench/README, sessions 36-37).

On this VM (free page reporting: memory freed by one process goes back to
the host, and the next process to touch it faults on the host too), a run
right after `perf script` (which frees ~90 MB) is slower than one after
another tracekit run; the interleaved bench puts every cold run there.

Usage: bench/cold_after_perf.py MODE [N]   (TK=path/to/tracekit)
  MODE: cold-back   cold cache, runs back to back
        cold-after  cold cache, each run after a perf script of the file
        warm-after  warm cache, each run after a perf script of the file
        cold-after-8mb, cold-after-50mb
                    as cold-after, with a tracekit run on the 8 or 50 MB
                    file before each perf script (the interleaved bench
                    runs the 8 MB one there; session 38)
Prints each run's wall time in ms, the best, and the median system time.
The time of what runs between the timed runs is not reported."""
import os, resource, shutil, statistics, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
tk = os.environ.get("TK", os.path.join(here, "..", "build", "bin", "tracekit"))
big = os.path.join(here, "work", "perfscript-sizes-50mb.data")
if not os.path.exists(big):
    sys.exit("no %s: run bench/perfscript_sizes_bench.sh 50 first" % big)
mode = sys.argv[1] if len(sys.argv) > 1 else "cold-back"
modes = ("cold-back", "cold-after", "warm-after", "cold-after-8mb", "cold-after-50mb")
if mode not in modes:
    sys.exit(__doc__)
n = int(sys.argv[2]) if len(sys.argv) > 2 else 8
cache = tempfile.mkdtemp(prefix="tk-cold-after-")  # never the user's cache
env = dict(os.environ, XDG_CACHE_HOME=cache)
ours = [tk, "print", "--format", "perf-script", big]


def run(argv):
    """wall and system time of argv, ms"""
    with open(os.devnull, "w") as null:
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_stime
        t0 = time.perf_counter()
        subprocess.run(argv, stdout=null, stderr=null, env=env, check=False)
        wall = (time.perf_counter() - t0) * 1000
        return wall, (resource.getrusage(resource.RUSAGE_CHILDREN).ru_stime - r0) * 1000



run(ours)  # the page cache holds the file, and a warm run finds the cache
times = []
before = {"cold-after-8mb": "8mb", "cold-after-50mb": "50mb"}.get(mode)
for _ in range(n):
    if before:
        run([tk, "print", "--format", "perf-script", big.replace("50mb", before)])
    if mode != "cold-back":
        run(["perf", "script", "-i", big])
    if mode != "warm-after":
        shutil.rmtree(os.path.join(cache, "tracekit"), ignore_errors=True)
    times.append(run(ours))
shutil.rmtree(cache, ignore_errors=True)
walls = [t[0] for t in times]
print("%s: %s ms, best %.1f; system time median %.1f ms" % (
    mode, " ".join("%.1f" % t for t in walls), min(walls), statistics.median(t[1] for t in times)))
