#!/usr/bin/env python3
"""Oracle checks of the model context (tests/oracle/context_perf.sh,
context_ctf.sh). Each mode reads tracekit's output and the reference tool's
text and exits non-zero with the first difference.

threads SCRIPT JSONL    per sample: comm, pid, tid of `perf script -F
                        comm,pid,tid` == JSON lines' comm, pid, tid
names SCRIPT CHROME     every (pid, tid) of the Chrome JSON's events has a
                        thread_name M event equal to the thread's last name
                        in `perf script -F comm,pid,tid --show-task-events`
                        (samples and COMM records), and X events exist
running SWITCHES CHROME per cpu, the running slices ("X", args.kind running,
                        not truncated) are what ran between two sched_switch
                        (`perf script -F cpu,time,trace --ns`): one slice of
                        next_pid per interval, idle left out, the next
                        switch ending it whatever its prev_pid says; so they
                        sum to the span from the first to the last switch
                        minus the idle task's time
stacks SCRIPT JSONL     every frame's symbol and dso (basename) of `perf
                        script -F ip,sym,dso` == the JSON lines' callchain
frames SCRIPT JSONL     as stacks, and each frame's address too (perf's
                        map-relative address == the JSON dso_off, or ip
                        without a dso); an inline frame ("inlined": true)
                        is perf's "sym (inlined)" (print --format json)
syscalls SCRIPT CHROME  per thread, raw_syscalls enter -> exit pairs of `perf
                        script -F tid,time,event,trace --ns` (one open per
                        thread; an entry while one is open drops it) == the
                        Chrome syscall spans (count, total ns, names sys_NR)
switches SCRIPT CHROME  perf --switch-events -a: per cpu, each thread's
                        SWITCH_CPU_WIDE IN to its OUT or the cpu's next IN
                        (`perf script --show-switch-events -F cpu,tid,time
                        --ns`) == the Chrome running slices, slice for slice
bt-names BT CHROME      LTTng kernel: each thread's last name in babeltrace2's
                        sched_switch / sched_wakeup / fork text == Chrome's
bt-running BT CHROME    LTTng kernel: as running, from babeltrace2's text
bt-bin BT JSONL         LTTng-UST: babeltrace2 --debug-info's bin = "IMAGE+0xOFF"
                        of each event == the JSON line's first frame dso+dso_off
"""
import collections
import json
import os
import re
import sys

CPU_PID = 0x7ffffff0


def die(msg):
    sys.exit(msg)


def script_samples(path):
    out = []
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if not line.strip():
            continue
        m = re.match(r"^\s*(.*?)\s+(-?\d+)/(-?\d+)\s*$", line)
        if not m:
            die("cannot read perf script line: %r" % line)
        out.append((m.group(1), int(m.group(2)), int(m.group(3))))
    return out


def jsonl(path):
    return [json.loads(l) for l in open(path)]


def chrome(path):
    return json.load(open(path))["traceEvents"]


def us_to_ns(v):
    # "12.345" us written with exactly three decimals: exact in ns
    return int(round(v * 1000))


def mode_threads(script, lines):
    want = script_samples(script)
    # JSON lines leave out a pid/tid of -1 (the model's "none"), perf prints -1
    got = [(e.get("comm", ""), e.get("pid", -1), e.get("tid", -1)) for e in jsonl(lines)]
    if len(want) != len(got):
        die("%d samples in perf script, %d JSON lines" % (len(want), len(got)))
    for i, (w, g) in enumerate(zip(want, got)):
        if w != g:
            die("sample %d: perf script says %r, tracekit %r" % (i, w, g))
    print("%d samples: comm, pid, tid equal" % len(want))


def mode_names(script, chrome_path):
    last = {}
    pid_of = {}
    for line in open(script, errors="replace"):
        line = line.rstrip("\n")
        m = re.search(r"PERF_RECORD_COMM(?: exec)?: (.*):(-?\d+)/(-?\d+)$", line)
        if m:
            last[int(m.group(3))] = m.group(1)
            pid_of[int(m.group(3))] = int(m.group(2))
            continue
        if "PERF_RECORD_" in line or not line.strip():
            continue
        m = re.match(r"^\s*(.*?)\s+(-?\d+)/(-?\d+)\s*$", line)
        if m:
            last[int(m.group(3))] = m.group(1)
            pid_of[int(m.group(3))] = int(m.group(2))
    ev = chrome(chrome_path)
    names = {}
    for e in ev:
        if e["ph"] == "M" and e["name"] == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
    used = {(e["pid"], e["tid"]) for e in ev if e["ph"] in ("i", "X") and e["pid"] != CPU_PID}
    checked = 0
    for pid, tid in sorted(used):
        if tid not in last:
            continue
        if (pid, tid) not in names:
            die("thread %d/%d has no thread_name" % (pid, tid))
        if names[(pid, tid)] != last[tid]:
            die("thread %d/%d named %r, perf says %r" % (pid, tid, names[(pid, tid)], last[tid]))
        checked += 1
    if checked == 0:
        die("no thread checked")
    xs = sum(1 for e in ev if e["ph"] == "X")
    if xs == 0:
        die("no X events")
    print("%d threads named as perf names them; %d X events" % (checked, xs))


def running_slices(ev):
    """per cpu, the Chrome running slices (not truncated): [(tid, dur_ns, ts_ns)]"""
    got = collections.defaultdict(list)
    for e in ev:
        if e["ph"] == "X" and e["args"].get("kind") == "running" and not e["args"].get("truncated"):
            if e["pid"] != CPU_PID:
                die("running slice outside the CPUs process: %r" % e)
            got[e["tid"] - 0x7fff0000].append((e["args"].get("tid"), us_to_ns(e["dur"]), us_to_ns(e["ts"])))
    return got


def expected_slices(switches):
    """switches: per cpu, a list of (time_ns, next_tid) in time order. Per
    cpu, what ran between two switches: [(tid, dur_ns, begin_ns)], the idle
    task (0) left out. The next switch ends the slice whatever its prev
    says: a stream that misses switches (lost events, or switches the
    kernel never records for some threads) still has the cpu busy until
    then."""
    want = {}
    for cpu, sw in switches.items():
        want[cpu] = [(nxt, t2 - t, t) for (t, nxt), (t2, _) in zip(sw, sw[1:]) if nxt != 0]
    return want


def compare_running(want, chrome_path, head=""):
    """Per cpu, the running slices (tid, duration) == want (per cpu,
    [(tid, dur_ns, begin_ns)]: what the switches say ran), as multisets;
    the sums (the span minus the idle time) are the summary. On a
    difference, says which slices."""
    got = running_slices(chrome(chrome_path))
    bad = []
    for cpu in sorted(set(want) | set(got)):
        w, g = want.get(cpu, []), got.get(cpu, [])
        wc = collections.Counter((tid, d) for tid, d, _ in w)
        gc = collections.Counter((tid, d) for tid, d, _ in g)
        if wc == gc:
            continue
        ws, gs = sum(d for _, d, _ in w), sum(d for _, d, _ in g)
        lines = ["cpu %d: running slices sum to %d ns, the switches say %d ns (%d slices, %d between switches)"
                 % (cpu, gs, ws, len(g), len(w))]
        missing, extra = wc - gc, gc - wc
        for tid, d, t in w:
            if missing[(tid, d)] > 0 and len(lines) < 6:
                missing[(tid, d)] -= 1
                lines.append("  no slice of tid %d for %d ns: the switches say it ran from %d.%09d"
                             % (tid, d, t // 10**9, t % 10**9))
        for tid, d, t in g:
            if extra[(tid, d)] > 0 and len(lines) < 11:
                extra[(tid, d)] -= 1
                lines.append("  a slice of tid %r for %d ns at ts %d ns that no two switches make" % (tid, d, t))
        bad.append("\n".join(lines))
    if bad:
        die("\n".join(bad))
    print(head + "%d cpus: running slices sum to the span minus idle (%s ns), slice for slice"
          % (len(want), ", ".join(str(sum(d for _, d, _ in want[c])) for c in sorted(want))))


def mode_running(path, chrome_path):
    switches = collections.defaultdict(list)
    for line in open(path, errors="replace"):
        # "[001] 12707.512016130: prev_comm=... next_pid=0 next_prio=120"
        m = re.match(r"^\s*\[(\d+)\]\s+(\d+)\.(\d+):.*next_pid=(-?\d+)", line)
        if m:
            switches[int(m.group(1))].append((int(m.group(2)) * 10**9 + int(m.group(3).ljust(9, "0")),
                                              int(m.group(4))))
    if not switches:
        die("no sched_switch in the perf script text")
    compare_running(expected_slices(switches), chrome_path)


def script_frame(line):
    """(symbol, dso) of a `perf script -F ip,sym,dso` frame line: the dso is
    the last balanced parenthesis group ("/memfd:x (deleted)" holds one)."""
    m = re.match(r"^\s*[0-9a-f]+ (.*)\)$", line)
    if not m:
        return None
    body, depth = m.group(1), 1
    for i in range(len(body) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(body[i], 0)
        if depth == 0:
            if i == 0 or body[i - 1] != " ":
                return None
            return body[:i - 1], body[i + 1:]
    return None


def mode_stacks(script, lines, addresses=False):
    want = []
    cur = None
    for line in open(script, errors="replace"):
        line = line.rstrip("\n")
        if not line.strip():
            if cur is not None:
                want.append(cur)
            cur = None
            continue
        frame = script_frame(line)
        if not frame:
            die("cannot read perf script frame: %r" % line)
        if cur is None:
            cur = []
        addr = int(line.split()[0], 16)
        cur.append((frame[0], os.path.basename(frame[1])) + ((addr,) if addresses else ()))
    if cur is not None:
        want.append(cur)
    got = []
    for e in jsonl(lines):
        if addresses and e.get("type", "sample") != "sample":
            continue
        got.append([(f.get("symbol", "[unknown]"),
                     "inlined" if f.get("inlined") else os.path.basename(f.get("dso", "[unknown]")))
                    + ((int(f.get("dso_off", f["ip"]), 16),) if addresses else ())
                    for f in e.get("callchain", [])])
    # samples with no frames print no block in perf script
    got = [g for g in got if g]
    if len(want) != len(got):
        die("%d stacks in perf script, %d in JSON lines" % (len(want), len(got)))
    frames = 0
    for i, (w, g) in enumerate(zip(want, got)):
        if w != g:
            for k, (a, b) in enumerate(zip(w, g)):
                if a != b:
                    die("stack %d frame %d: perf script %r, tracekit %r" % (i, k, a, b))
            die("stack %d: %d frames in perf script, %d in tracekit" % (i, len(w), len(g)))
        frames += len(w)
    print("%d stacks, %d frames: symbols and dsos%s equal"
          % (len(want), frames, " and addresses" if addresses else ""))


def mode_frames(script, lines):
    mode_stacks(script, lines, addresses=True)


BT = re.compile(r"^\[(\d+):(\d+):(\d+)\.(\d+)\] \(\+[^)]*\) \S+ (\S+): \{ cpu_id = (\d+) \}, \{ (.*) \}$")


def bt_events(path):
    for line in open(path, errors="replace"):
        m = BT.match(line.rstrip("\n"))
        if not m:
            continue
        h, mi, s, ns = (int(m.group(i)) for i in range(1, 5))
        t = ((h * 60 + mi) * 60 + s) * 10**9 + ns
        fields = dict(re.findall(r'(\w+) = ("[^"]*"|-?\d+)', m.group(7)))
        yield t, m.group(5), int(m.group(6)), fields


def mode_bt_names(bt, chrome_path):
    last = {}
    for _, name, _, f in bt_events(bt):
        if name == "sched_switch":
            for side in ("prev", "next"):
                tid = int(f[side + "_tid"])
                if tid > 0:
                    last[tid] = f[side + "_comm"].strip('"')
        elif name in ("sched_wakeup", "sched_wakeup_new", "sched_waking"):
            if name != "sched_waking" and int(f["tid"]) > 0:
                last[int(f["tid"])] = f["comm"].strip('"')
        elif name == "sched_process_fork":
            last[int(f["child_tid"])] = f["child_comm"].strip('"')
    ev = chrome(chrome_path)
    names = {e["tid"]: e["args"]["name"] for e in ev
             if e["ph"] == "M" and e["name"] == "thread_name" and e["pid"] != CPU_PID}
    checked = 0
    for tid, name in sorted(last.items()):
        if names.get(tid) is None:
            continue
        if names[tid] != name:
            die("thread %d named %r, babeltrace2's text says %r" % (tid, names[tid], name))
        checked += 1
    if checked < len(last) // 2:
        die("only %d of %d threads named" % (checked, len(last)))
    print("%d threads named as babeltrace2 shows them" % checked)


def mode_bt_running(bt, chrome_path):
    switches = collections.defaultdict(list)
    for t, name, cpu, f in bt_events(bt):
        if name == "sched_switch":
            switches[cpu].append((t, int(f["next_tid"])))
    if not switches:
        die("no sched_switch in babeltrace2's text")
    compare_running(expected_slices(switches), chrome_path)


def mode_bt_bin(bt, lines):
    want = []
    for line in open(bt, errors="replace"):
        m = re.search(r'debug_info = \{ bin = "([^"]*)"', line)
        if m:
            want.append(m.group(1))
    got = []
    for e in jsonl(lines):
        fr = (e.get("callchain") or [{}])[0]
        got.append("%s+%s" % (fr["dso"], fr["dso_off"]) if "dso" in fr else "")
    if len(want) != len(got) or not any(want):
        die("%d events with debug_info in babeltrace2's text, %d JSON lines" % (len(want), len(got)))
    for i, (w, g) in enumerate(zip(want, got)):
        if w != g:
            die("event %d: babeltrace2 says bin %r, tracekit %r" % (i, w, g))
    print("%d events, %d in an image: same image and offset" % (len(want), sum(1 for w in want if w)))


def mode_syscalls(script, chrome_path):
    want = collections.Counter()
    opened = {}
    for line in open(script, errors="replace"):
        m = re.match(r"^\s*(-?\d+)\s+(\d+)\.(\d+):\s+raw_syscalls:sys_(enter|exit):\s+NR (-?\d+)", line)
        if not m:
            continue
        tid = int(m.group(1))
        t = int(m.group(2)) * 10**9 + int(m.group(3).ljust(9, "0"))
        if m.group(4) == "enter":
            opened[tid] = (t, int(m.group(5)))
        elif tid in opened:
            t0, nr = opened.pop(tid)
            want[(tid, "sys_%d" % nr, "n")] += 1
            want[(tid, "sys_%d" % nr, "ns")] += t - t0
    got = collections.Counter()
    for e in chrome(chrome_path):
        if e["ph"] == "X" and e["args"].get("kind") == "syscall" and not e["args"].get("truncated"):
            got[(e["tid"], e["name"], "n")] += 1
            got[(e["tid"], e["name"], "ns")] += us_to_ns(e["dur"])
    if not want:
        die("no syscall pairs in the perf script text")
    if want != got:
        diff = sorted(set(want.items()) ^ set(got.items()))[:4]
        die("syscall spans differ (perf script vs tracekit): %r" % diff)
    print("%d syscalls on %d threads: spans equal" %
          (sum(v for (_, _, k), v in want.items() if k == "n"), len({k[0] for k in want})))


def mode_switches(script, chrome_path):
    """A slice from a thread's IN to its OUT, or to the cpu's next IN."""
    want = collections.defaultdict(list)
    running = {}
    n = 0
    for line in open(script, errors="replace"):
        m = re.match(r"^\s*(-?\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+PERF_RECORD_SWITCH_CPU_WIDE (IN|OUT)", line)
        if not m:
            continue
        n += 1
        tid, cpu = int(m.group(1)), int(m.group(2))
        t = int(m.group(3)) * 10**9 + int(m.group(4).ljust(9, "0"))
        cur = running.get(cpu)
        if m.group(5) == "IN":
            if cur and cur[0] > 0:
                want[cpu].append((cur[0], t - cur[1], cur[1]))
            running[cpu] = (tid, t)
        elif cur and cur[0] == tid:
            if tid > 0:
                want[cpu].append((tid, t - cur[1], cur[1]))
            running[cpu] = None
    if not n:
        die("no SWITCH_CPU_WIDE records in the perf script text")
    compare_running(dict(want), chrome_path, "%d switch records, " % n)


def main():
    modes = {"switches": mode_switches, "syscalls": mode_syscalls, "bt-bin": mode_bt_bin, "threads": mode_threads, "names": mode_names, "running": mode_running,
             "stacks": mode_stacks, "frames": mode_frames, "bt-names": mode_bt_names, "bt-running": mode_bt_running}
    if len(sys.argv) != 4 or sys.argv[1] not in modes:
        die(__doc__)
    modes[sys.argv[1]](sys.argv[2], sys.argv[3])


main()
