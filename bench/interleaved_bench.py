#!/usr/bin/env python3
"""Issue 19's perf.data targets timed in rounds: each round runs every
command once, in a fixed order, so a slow minute of this shared VM lands
on all of them alike (hyperfine, as the other benches use it, times one
command's runs back to back, and a ratio then compares two different
minutes). Best wall time of ROUNDS per command, and the ratios the issue
asks for. The cold runs empty the symbol cache first (not timed).

Usage: bench/interleaved_bench.py [ROUNDS]   (default 15)
Needs perf and the recordings of bench/perfscript_sizes_bench.sh
(bench/work/perfscript-sizes-{8,50}mb.data); TK=path/to/tracekit."""
import os
import shutil
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
tk = os.path.abspath(os.environ.get("TK", os.path.join(here, "..", "build", "bin", "tracekit")))
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
data = {size: os.path.join(here, "work", "perfscript-sizes-%s.data" % size) for size in ("8mb", "50mb")}
for path in data.values():
    if not os.path.exists(path):
        sys.exit("missing %s: run bench/perfscript_sizes_bench.sh 8 50 first" % path)
cache = tempfile.mkdtemp(prefix="tk-interleaved-")
env = dict(os.environ, XDG_CACHE_HOME=cache)
fields = "comm,pid,tid,cpu,time,event,ip,sym,symoff,dso,period"

# name -> (argv, cold: empty the cache first)
commands = {}
for size, path in data.items():
    commands["perf script %s" % size] = (["perf", "script", "-i", path], False)
    commands["tracekit cold %s" % size] = ([tk, "print", "--format", "perf-script", path], True)
    commands["tracekit warm %s" % size] = ([tk, "print", "--format", "perf-script", path], False)
big = data["50mb"]
commands["perf script -F 50mb"] = (["perf", "script", "-F", fields, "-i", big], False)
commands["tracekit json cold 50mb"] = ([tk, "print", "--format", "json", big], True)
commands["tracekit json warm 50mb"] = ([tk, "print", "--format", "json", big], False)
commands["perf report --stats 50mb"] = (["perf", "report", "--stats", "-i", big], False)
commands["tracekit stats 50mb"] = ([tk, "stats", big], False)

best = {name: float("inf") for name in commands}
with open(os.devnull, "w") as null:
    for _ in range(rounds):
        for name, (argv, cold) in commands.items():
            if cold:
                shutil.rmtree(os.path.join(cache, "tracekit"), ignore_errors=True)
            t0 = time.perf_counter()
            subprocess.run(argv, stdout=null, stderr=null, env=env, check=False)
            best[name] = min(best[name], time.perf_counter() - t0)
shutil.rmtree(cache, ignore_errors=True)

print("tracekit: %s, %d rounds, load average %s" % (tk, rounds, open("/proc/loadavg").read().split()[:3]))
for name, t in best.items():
    print("%-26s best %8.4f s" % (name, t))
def ratio(ref, ours, target):
    r = best[ref] / best[ours]
    print("%-26s %6.2fx (target %sx)%s" % (ours, r, target, "" if r >= target else "  NOT MET"))
for size, target in (("8mb", 10), ("50mb", 20)):
    ratio("perf script %s" % size, "tracekit cold %s" % size, target)
    ratio("perf script %s" % size, "tracekit warm %s" % size, 15 if size == "8mb" else target)
ratio("perf script -F 50mb", "tracekit json cold 50mb", 15)
ratio("perf script -F 50mb", "tracekit json warm 50mb", 15)
ratio("perf report --stats 50mb", "tracekit stats 50mb", 3)
