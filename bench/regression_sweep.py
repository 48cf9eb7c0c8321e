#!/usr/bin/env python3
"""Every existing bench's tracekit commands, an older build against this
one: issue 19's "nothing regresses by more than 3% on any existing bench"
checked in one run. Each command runs in interleaved pairs (old new, new
old, ...), so a slow minute of this shared VM lands on both; printed: best
and median wall time of each, the median of the per-pair ratio new/old,
the pairs the new build won, and the best of three peak RSS of each.
A ratio above 1.03 is flagged REGRESSION.

The commands are those bench/*.sh time: perf-script, stats, json and
report (perfscript_bench, perf_bench, profile_exports_bench), the
profile exports, SQL (sql_bench), perf -> CTF (perfctf_bench), CTF 1.8
and CTF 2 decode, text and conversion (ctf_bench, ctf2_bench,
pipeline_bench), CPEL text (cpel_bench) and DWARF unwinding
(unwind_bench). Both builds read the same warm symbol cache directory
(an older build without one ignores it).

Usage: bench/regression_sweep.py OLD [PAIRS]   (default 16 pairs)
OLD is a tracekit binary or a commit; a commit is built in
/tmp/tk-sweep-COMMIT (git worktree, cmake RelWithDebInfo, only the CLI).
The new build is TK (default build/bin/tracekit). Needs perf,
bench/perfscript_sizes_bench.sh's recordings and bench/ctf_bench.sh's
traces (made when missing); the other inputs are made in /tmp/tk-sweep.
Exit status 1 when a command regressed."""
import os
import shutil
import statistics
import subprocess
import sys
import time

if len(sys.argv) not in (2, 3):
    sys.exit(__doc__)
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
pairs = int(sys.argv[2]) if len(sys.argv) > 2 else 16
new = os.path.abspath(os.environ.get("TK", os.path.join(root, "build", "bin", "tracekit")))
old = sys.argv[1]
if not os.path.isfile(old):
    commit = subprocess.run(["git", "-C", root, "rev-parse", "--short", old], check=True,
                            capture_output=True, text=True).stdout.strip()
    tree = "/tmp/tk-sweep-" + commit
    if not os.path.exists(tree):
        subprocess.run(["git", "-C", root, "worktree", "add", "-f", "--detach", tree, commit], check=True)
    subprocess.run(["cmake", "-S", tree, "-B", tree + "/build", "-DCMAKE_BUILD_TYPE=RelWithDebInfo"],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", tree + "/build", "-j2", "--target", "tracekit"], check=True,
                   stdout=subprocess.DEVNULL)
    old = tree + "/build/bin/tracekit"

work = "/tmp/tk-sweep"
os.makedirs(work, exist_ok=True)
out_dir = os.path.join(work, "out")
env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "xdg"))
p8 = os.path.join(here, "work", "perfscript-sizes-8mb.data")
p50 = os.path.join(here, "work", "perf-50mb.data")
if not os.path.exists(p8):
    subprocess.run([os.path.join(here, "perfscript_sizes_bench.sh"), "8"], env=dict(os.environ, RUNS="1"),
                   check=True, stdout=subprocess.DEVNULL)
if not os.path.exists(p50):
    p50 = os.path.join(here, "work", "perfscript-sizes-50mb.data")
    if not os.path.exists(p50):
        subprocess.run([os.path.join(here, "perfscript_sizes_bench.sh"), "50"], env=dict(os.environ, RUNS="1"),
                       check=True, stdout=subprocess.DEVNULL)
ctf = "/tmp/tk-ctf-bench"
if not os.path.exists(os.path.join(ctf, "ust-trace")):
    subprocess.run([os.path.join(here, "ctf_bench.sh")], env=dict(os.environ, PREPARE_ONLY="1", TK=new),
                   check=True, stdout=subprocess.DEVNULL)
dmesg, ust = os.path.join(ctf, "dmesg-ctf"), os.path.join(ctf, "ust-trace")
dmesg2 = os.path.join(work, "dmesg-ctf2")
if not os.path.exists(dmesg2):
    subprocess.run([new, "convert", dmesg, "-o", dmesg2, "--to", "ctf2"], check=True)
cpel = os.path.join(work, "bench.cpel")
if not os.path.exists(cpel):
    subprocess.run([sys.executable, os.path.join(here, "cpel_gen.py"), cpel, "2000000"], check=True,
                   stdout=subprocess.DEVNULL)
dwarf = os.path.join(work, "py-dwarf.data")
if not os.path.exists(dwarf):  # unwind_bench.sh's python workload, 3 s
    subprocess.run(["perf", "record", "-q", "--call-graph", "dwarf", "-e", "cpu-clock:u", "-F", "2000", "-o", dwarf,
                    "--", sys.executable, "-c",
                    "import json, time\nend = time.process_time() + 3\n"
                    "while time.process_time() < end:\n"
                    "    sum(i * i for i in range(100000)); json.dumps(list(range(20000)))"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

o = out_dir + "/"
topsym = ("SELECT f.name, f.dso, count(*) FROM sample s JOIN callsite c ON c.id = s.callsite_id "
          "JOIN stack_frame f ON f.id = c.frame_id GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 20")
commands = [
    ("perf-script 8 MB", ["print", "--format", "perf-script", p8]),
    ("stats 50 MB", ["stats", p50]),
    ("json 50 MB", ["print", "--format", "json", p50]),
    ("report 8 MB", ["report", "-q", p8]),
    ("pprof 8 MB", ["convert", "-q", p8, "-o", o + "x.pb.gz"]),
    ("speedscope 8 MB", ["convert", "-q", p8, "-o", o + "x.speedscope.json"]),
    ("flame svg 8 MB", ["convert", "-q", p8, "-o", o + "x.svg"]),
    ("folded 8 MB", ["convert", "-q", p8, "-o", o + "x.folded"]),
    ("sql group by 8 MB", ["sql", "-q", p8, "SELECT name, count(*) FROM event GROUP BY name"]),
    ("sql top symbols 8 MB", ["sql", "-q", p8, topsym]),
    ("sqlite export 8 MB", ["convert", "-q", p8, "-o", o + "x.sqlite"]),
    ("perf -> ctf 8 MB", ["convert", p8, "-o", o + "ctf", "--to", "ctf"]),
    ("perf -> ctf 50 MB", ["convert", p50, "-o", o + "ctf", "--to", "ctf"]),
    ("ctf stats dmesg", ["stats", dmesg]),
    ("ctf babeltrace dmesg", ["print", "--format", "babeltrace", dmesg]),
    ("ctf text dmesg", ["print", "--format", "text", dmesg]),
    ("ctf stats ust", ["stats", ust]),
    ("ctf babeltrace ust", ["print", "--format", "babeltrace", ust]),
    ("ctf2 stats dmesg", ["stats", dmesg2]),
    ("ctf2 babeltrace dmesg", ["print", "--format", "babeltrace", dmesg2]),
    ("dmesg -> ctf", ["convert", dmesg, "-o", o + "c18", "--to", "ctf"]),
    ("dmesg -> ctf2", ["convert", dmesg, "-o", o + "c2", "--to", "ctf2"]),
    ("cpel text", ["print", "--format", "cpeldump", cpel]),
    ("dwarf perf-script", ["print", "--format", "perf-script", dwarf]),
]


def written(path):
    """bytes of the files under path"""
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


def run(binary, args, rss=False):
    """wall seconds of one run, or (peak RSS in KB, bytes written) of one;
    the outputs emptied first"""
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    with open(os.devnull, "w") as null:
        if rss:
            stdout = os.path.join(work, "stdout")
            with open(stdout, "w") as f:
                r = subprocess.run(["/usr/bin/time", "-f", "%M", binary] + args, stdout=f,
                                   stderr=subprocess.PIPE, env=env, text=True)
            return int(r.stderr.strip().splitlines()[-1]), os.path.getsize(stdout) + written(out_dir)
        t0 = time.perf_counter()
        subprocess.run([binary] + args, stdout=null, stderr=null, env=env)
        return time.perf_counter() - t0


print("regression_sweep: %s, old %s, new %s, %d pairs, load %s" % (
    time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), old, new, pairs,
    open("/proc/loadavg").read().split()[0]))
print("%-22s %17s %17s %7s %6s %17s" % ("command", "old best/med ms", "new best/med ms", "ratio", "won", "peak RSS old/new"))
status = 0
for name, args in commands:
    run(new, args)  # the page cache and the symbol cache, warm for both
    run(old, args)
    t_old, t_new, ratio = [], [], []
    for i in range(pairs):
        order = ((old, t_old), (new, t_new)) if i % 2 == 0 else ((new, t_new), (old, t_old))
        for binary, times in order:
            times.append(run(binary, args))
        ratio.append(t_new[-1] / t_old[-1])
    raw = r = statistics.median(ratio)
    m_old, n_old = min(run(old, args, rss=True) for _ in range(3))
    m_new, n_new = min(run(new, args, rss=True) for _ in range(3))
    flag = ""
    if abs(n_new - n_old) > max(n_old / 100, 1 << 16):
        # not the same work: say so, and compare time per byte written
        flag = "  output %.1f -> %.1f MB, time per byte %.3f" % (n_old / 1e6, n_new / 1e6, r * n_old / n_new)
        r *= n_old / n_new
    if r > 1.03:
        flag, status = flag + "  REGRESSION", 1
    print("%-22s %7.1f / %7.1f %7.1f / %7.1f %7.3f %3d/%-2d %7.1f / %5.1f MB%s" % (
        name, min(t_old) * 1e3, statistics.median(t_old) * 1e3, min(t_new) * 1e3,
        statistics.median(t_new) * 1e3, raw, sum(x < 1 for x in ratio), pairs, m_old / 1024, m_new / 1024, flag),
        flush=True)
sys.exit(status)
