#!/usr/bin/python3
"""Python speed, one run (issue 18's figures):
  1. iteration: events/s reading every event of the same CTF trace with
     tracekit (for ev in src: ev.name, ev.ts) and with babeltrace2's Python
     bindings (bt2.TraceCollectionMessageIterator: msg.event.name,
     msg.default_clock_snapshot.ns_from_origin), same work per event;
  2. columns(): events/s decoded into numpy arrays (ts, cpu, name) from
     the same CTF trace as 1 (the same event count is checked), best of N
     calls (CPU and wall each), with the load average before and after;
  3. cluster: tracekit.cluster.profile over N copies of a perf.data file on
     a LocalCluster of 1 and then 2 worker processes (wall time, speed-up),
     and the same profiles in 1 then 2 plain processes (what the machine
     allows at that moment).
Traces are made in WORKDIR (default /tmp/tk-py-bench), reused when present:
the 1.5 M-event dmesg CTF trace of bench/ctf_bench.sh (written by
babeltrace2) and a `perf record -F 5000 -g -a` recording of 2 s.
usage: bench/python_bench.py [--columns] [--tries N] [WORKDIR]   (env TK_BUILD_DIR, default build/)
  --columns: part 2 only, best of 15 (a loaded machine needs more tries)
  --tries N: the N of part 2 (default 5 with the other parts, 15 alone)
  --perf FILE: with --columns, also columns(ts, cpu, pid, tid, name,
    period) of the perf.data FILE (the lean reader's perf.data path)
"""
import os
import random
import shutil
import subprocess
import sys
import time

here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build = os.environ.get("TK_BUILD_DIR", os.path.join(here, "build"))
sys.path.insert(0, os.path.join(build, "python"))
import tracekit            # noqa: E402
import tracekit.cluster    # noqa: E402

only_columns = "--columns" in sys.argv[1:]
args = [a for a in sys.argv[1:] if a != "--columns"]
tries = None
perf_file = None
if "--perf" in args:
    i = args.index("--perf")
    perf_file = args[i + 1]
    del args[i:i + 2]
if "--tries" in args:
    i = args.index("--tries")
    tries = int(args[i + 1])
    del args[i:i + 2]
work = args[0] if args else "/tmp/tk-py-bench"
os.makedirs(work, exist_ok=True)


def make_dmesg():
    trace = os.path.join(work, "dmesg-ctf")
    if os.path.exists(os.path.join(trace, "dmesg.txt", "metadata")):
        return os.path.join(trace, "dmesg.txt")
    r = random.Random(1)
    words = ("usb device new high-speed number using ehci_hcd ACPI PCI interrupt link "
             "enabled IRQ eth0 link up 1000Mbps full duplex").split()
    txt = os.path.join(work, "dmesg.txt")
    with open(txt, "w") as f:
        t = 0.0
        for _ in range(1500000):
            t += r.random() * 0.001
            f.write("[%12.6f] %s\n" % (t, " ".join(r.choice(words) for _ in range(r.randint(3, 9)))))
    subprocess.run(["babeltrace2", "run", "--component=src:src.text.dmesg",
                    '--params=path="%s"' % txt, "--component=sink:sink.ctf.fs",
                    '--params=path="%s"' % trace, "--connect=src:sink"], check=True,
                   stdout=subprocess.DEVNULL)
    return os.path.join(trace, "dmesg.txt")


def make_perf():
    path = os.path.join(work, "perf.data")
    if not os.path.exists(path):
        subprocess.run(["perf", "record", "-q", "-F", "5000", "-g", "-a", "-o", path,
                        "--", "sh", "-c", "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done"],
                       check=True, stderr=subprocess.DEVNULL)
    return path


def cpu():
    # user + system of this process at ns resolution (os.times() counts
    # 10 ms clock ticks: too coarse for a 70 ms call)
    return time.process_time()


def tk_iterate(path):
    n = 0
    last = 0
    for ev in tracekit.open(path):
        ev.name
        last = ev.ts
        n += 1
    return n, last


def bt2_iterate(path):
    import bt2
    n = 0
    last = 0
    for msg in bt2.TraceCollectionMessageIterator(path):
        if type(msg) is bt2._EventMessageConst:
            msg.event.name
            last = msg.default_clock_snapshot.ns_from_origin
            n += 1
    return n, last


def timed(fn, *a):
    c0, w0 = cpu(), time.monotonic()
    r = fn(*a)
    return r, cpu() - c0, time.monotonic() - w0


def main():
    ctf = make_dmesg()
    print("load average %s (1, 5, 15 min) at the start" % load())
    if only_columns:
        columns_rate(ctf, tries or 15)
        if perf_file:
            columns_rate(perf_file, tries or 15,
                         names=["ts", "cpu", "pid", "tid", "name", "period"])
        return
    (n_tk, _), c_tk, w_tk = timed(tk_iterate, ctf)
    (n_bt, _), c_bt, w_bt = timed(bt2_iterate, ctf)
    assert n_tk == n_bt, (n_tk, n_bt)
    print("iteration, %d events (dmesg CTF %s):" % (n_tk, ctf))
    print("  tracekit  %6.2f s CPU  %9.0f events/s" % (c_tk, n_tk / c_tk))
    print("  bt2       %6.2f s CPU  %9.0f events/s" % (c_bt, n_bt / c_bt))
    print("  ratio     %6.1fx" % (c_bt / c_tk))
    columns_rate(ctf, tries or 5, n_tk)

    perf = make_perf()
    files = []
    for i in range(200):
        dst = os.path.join(work, "copies", "r%03d.data" % i)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if not os.path.exists(dst):
            shutil.copyfile(perf, dst)
        files.append(dst)
    from dask.distributed import Client, LocalCluster
    walls = {}
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          host="127.0.0.1", dashboard_address=None) as lc, Client(lc) as client:
            tracekit.cluster.profile(files[:4], client)          # warm the workers
            t0 = time.monotonic()
            table = tracekit.cluster.profile(files, client)
            walls[workers] = time.monotonic() - t0
            total = sum(table.weights.values())
        print("cluster profile of %d files, %d worker(s): %.2f s (total weight %d)" %
              (len(files), workers, walls[workers], total))
    print("  scaling 1 -> 2 workers: %.2fx" % (walls[1] / walls[2]))
    # what the machine gives two processes right now, without Dask: the
    # same profiles in 1 then 2 plain processes (the ceiling for the above)
    from multiprocessing import Pool
    plain = {}
    for n in (1, 2):
        t0 = time.monotonic()
        with Pool(n) as pool:
            pool.map(_plain_profiles, [files[i::n] for i in range(n)])
        plain[n] = time.monotonic() - t0
    print("plain processes, same files: 1: %.2f s, 2: %.2f s, %.2fx" %
          (plain[1], plain[2], plain[1] / plain[2]))
    print("load average %s at the end" % load())


def load():
    return "%.2f %.2f %.2f" % os.getloadavg()


def columns_rate(ctf, tries, n_events=None, names=("ts", "cpu", "name")):
    """columns(names) over the whole input, a fresh source per call; best
    CPU and best wall of `tries` calls (the first call of a process also
    pays for the page cache and the buffer pool)."""
    def cols(path):
        n = 0
        for b in tracekit.open(path).columns(list(names)):
            n += len(b["ts"])
        return n
    load_before = load()
    best = best_cpu = None
    for _ in range(tries):
        n, c, w = timed(cols, ctf)
        best = w if best is None else min(best, w)
        best_cpu = c if best_cpu is None else min(best_cpu, c)
    if n_events is not None:
        assert n == n_events, (n, n_events)  # the trace of the bt2 comparison
    print("columns(%s) of %s: %d events, best of %d: wall %.3f s = %.1f M events/s, "
          "CPU %.3f s = %.1f M events/s (load average %s before, %s after)" %
          (", ".join(names), ctf, n, tries, best, n / best / 1e6, best_cpu, n / best_cpu / 1e6,
           load_before, load()))


def _plain_profiles(paths):
    tracekit._tracekit.keep_kallsyms(True)
    for p in paths:
        tracekit.profile(p, "symbol")


if __name__ == "__main__":
    main()
