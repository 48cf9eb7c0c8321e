#!/usr/bin/env python3
"""Mutation sweep through the tracekit CLI.

Per-parser fuzzers exercise one entry point each; this sweep exercises the
glue: format detection, the CLI's error reporting, every print style, the
reports, every conversion and diff. Each case takes a test data file (or a
CTF trace directory), damages a copy of it (bit flips, random bytes, "length
field" values, inserted/deleted/duplicated spans, truncation) from a seed,
and runs a few tracekit commands on it under a timeout. A case fails when:

  - stderr holds a sanitizer report (ASan, UBSan, LeakSanitizer);
  - the process dies on a signal, or exits with a status other than 0 or 1;
  - it runs longer than --timeout seconds (a hang);
  - it exits 1 without an error message naming the input file;
  - it uses more than --max-rss-mb of memory (an unbounded allocation);
  - a conversion that failed leaves files behind (outputs appear complete
    or not at all), or one that succeeded writes output tracekit itself
    cannot read back.

Each failure is printed with the seed and case number; `--replay CASE`
rebuilds that exact input (kept with --keep DIR) and reruns it.

  mutate_cli.py --tk build-asan/bin/tracekit --testdata ../shared/testdata \
      --seed 1 --cases 2000 --jobs 2
"""

import argparse
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

# Inputs, relative to the test data directory. Small and medium files keep a
# case fast under ASan; together they cover every reader and dialect.
INPUTS = {
    "perf": [
        "perf/quipper/perf.data.singleprocess-3.4",
        "perf/quipper/perf.data.singleprocess-3.8",
        "perf/quipper/perf.data.lost_samples-4.4",
        "perf/quipper/perf.data.piped.lost_samples-4.4",
        "perf/quipper/perf.data.branch-4.14",
        "perf/quipper/perf.data.group_desc-4.14",
        "perf/quipper/perf.data.ctx_switch_namespaces-4.14",
        "perf/quipper/perf.data.piped.ctx_switch_namespaces-4.14",
        "perf/quipper/perf.data.piped.header_features-4.16",
        "perf/quipper/perf.data.piped.header_feautres_group_desc-6.8",
        "perf/quipper/perf.data.piped.header_features_aligned-6.12",
        "perf/quipper/perf.data.piped.no_attr_ids-4.14",
        "perf/quipper/perf.data.remmap-3.2",
        "perf/quipper/perf.data.hybrid_topology",
        "perf/quipper/perf.data.piped.target.throttled-3.4",
        "perf/quipper/perf.data.proc.map.timeout-3.18",
        "perf/quipper/perf.data.intel_pt-4.14",
        "perf/quipper/perf.data.i686-3.4",
        "perf/quipper/perf.data.armv7-3.4",
        "perf/lpd/sleep.data",
        "perf/lpd/sleep.compressed.data",
        "perf/lpd/sleep.compressed2.data",
        "perf/lpd/sleep.compressed.pipe.data",
        "perf/lpd/sleep.compressed2.pipe.data",
        "perf/perfparser/probe.data.file",
        "perf/perfparser/probe.data.stream",
        "perf/perfparser/vector_static_gcc__perf.lbr.data",
        "perf/perfparser/contentsize.data",
        "perf/perfparser/vector_static_gcc__perf.data.zstd",
        "perf/perfparser/cpp-inlining__cpp-inlining.perf.data",
        "perf/simpleperf/perf_for_build_id_check.data",
        "perf/simpleperf/perf_with_trace_offcpu.data",
    ],
    "ctf": [
        "ctf/babeltrace/succeed/wk-heartbeat-u",
        "ctf/babeltrace/succeed/sequence",
        "ctf/babeltrace/succeed/smalltrace",
        "ctf/babeltrace/succeed/2packets",
        "ctf/babeltrace/succeed/array-align-elem",
        "ctf/babeltrace/succeed/struct-array-align-elem",
        "ctf/babeltrace/succeed/meta-variant-one-underscore",
        "ctf/babeltrace/succeed/trace-with-index",
        "ctf/babeltrace/succeed/no-packet-context",
        "ctf/babeltrace/succeed/crlf-metadata",
        "ctf/babeltrace/succeed/warnings",
        "ctf/babeltrace/succeed/env-warning",
        "ctf/babeltrace/intersection/3eventsintersect",
        "ctf/babeltrace/packet-seq-num/2-streams-lost-in-2",
        "ctf/babeltrace/fail/valid-events-then-invalid-events",
        "ctf/babeltrace/fail/packet-based-metadata",
    ],
    "cpel": [
        "cpel/basic.cpel",
        "cpel/basic-le.cpel",
        "cpel/multi-table.cpel",
        "cpel/multi-table-le.cpel",
        "cpel/vpp-small.cpel",
        "cpel/vpp-new.cpel",
        "cpel/bad-string-offset.cpel",
    ],
    "elog": [
        "cpel/vpp-small.elog",
        "cpel/vpp-new.elog",
    ],
    "dcpi": [
        "dcpi/simple.prof",
        "dcpi/version-006.prof",
        "dcpi/optional-unknown.prof",
        "dcpi/empty.prof",
    ],
    # CTF 2 (JSON metadata); not in the default --formats: run by hand with
    # --formats ctf2 (CTF commands plus --to ctf2)
    "ctf2": [
        "ctf2/babeltrace-2.1/succeed/wk-heartbeat-u",
        "ctf2/babeltrace-2.1/succeed/sequence",
        "ctf2/babeltrace-2.1/succeed/2packets",
        "ctf2/babeltrace-2.1/succeed/fl-bm",
        "ctf2/babeltrace-2.1/succeed/meta-variant-one-underscore",
        "ctf2/babeltrace-2.1/succeed/struct-array-align-elem",
        "ctf2/babeltrace-2.1/succeed/ev-disc-no-ts-begin-end",
        "ctf2/babeltrace-2.1/intersection/3eventsintersect",
        "ctf2/trace-with-index",
        "ctf2/smalltrace",
    ],
}

# barectf traces are small and cover every field kind; a few are added per
# run (chosen by the seed) in main().
BARECTF_PER_RUN = 12

PRINT_STYLES = {
    "perf": ["text", "json", "perf-script"],
    "ctf": ["text", "json", "babeltrace", "metadata"],
    "cpel": ["text", "json", "cpeldump"],
    "elog": ["text", "json", "elog", "cpeldump"],
    "dcpi": ["text", "json", "dcpicat", "listing"],
}
# Outputs tracekit also reads (chrome, json and folded are for other tools).
READABLE = {"ctf", "perf", "cpel", "dcpi", "ctf2"}
CONVERT_TO = ["ctf", "perf", "cpel", "dcpi", "chrome", "json", "folded", "pprof", "speedscope", "svg"]
PERF_SHOW = ["--show-task-events", "--show-mmap-events", "--show-switch-events",
             "--show-lost-events", "--show-namespace-events", "--show-cgroup-events",
             "--show-bpf-events", "--show-text-poke-events", "--show-round-events"]

SANITIZER_RE = re.compile(
    rb"ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|"
    rb"UndefinedBehaviorSanitizer|AddressSanitizer:DEADLYSIGNAL|"
    rb"Assertion .* failed|stack smashing")

INTERESTING = [0, 1, 2, 7, 8, 0x10, 0x3f, 0x40, 0x7f, 0x80, 0xff, 0x100, 0xfff, 0x1000,
               0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xfffffff8,
               0xffffffff, 0x100000000, 0x7fffffffffffffff, 0x8000000000000000,
               0xfffffffffffffff8, 0xffffffffffffffff]


def commands_for(fmt, event_names):
    """Every command of the sweep for one input format, as argument lists;
    {IN} is the damaged input, {ORIG} the intact one, {OUT} an output path."""
    cmds = [["info", "{IN}"], ["stats", "{IN}"]]
    if fmt == "ctf2":
        cmds.append(["convert", "{IN}", "--to", "ctf2", "-o", "{OUT}"])
        fmt = "ctf"  # otherwise the CTF commands
    for style in PRINT_STYLES[fmt]:
        cmds.append(["print", "-f", style, "{IN}"])
    if fmt == "perf":
        cmds += [["print", "-a", "-f", "perf-script"] + PERF_SHOW + ["{IN}"],
                 ["print", "-a", "-f", "text", "{IN}"],
                 ["print", "-a", "--raw-order", "-f", "json", "{IN}"],
                 ["print", "--cpu", "0", "--pid", "1", "-f", "perf-script", "{IN}"],
                 ["convert", "-a", "{IN}", "--to", "ctf", "-o", "{OUT}"],
                 ["convert", "{IN}", "--to", "perf", "--compress", "-o", "{OUT}"],
                 ["convert", "{IN}", "--to", "perf", "--byte-order", "big", "-o", "{OUT}"]]
    if fmt == "ctf":
        cmds += [["print", "-f", "babeltrace", "--clock-gmt", "{IN}"],
                 ["convert", "{IN}", "--to", "ctf", "--ctf-packet-size", "4096",
                  "--ctf-packetized-metadata", "-o", "{OUT}"]]
    if fmt in ("cpel", "elog", "ctf"):
        cmds.append(["convert", "{IN}", "--to", "cpel", "--cpel-tracks", "cpu", "-o", "{OUT}"])
    if fmt in ("perf", "dcpi"):
        cmds += [["report", "{IN}"], ["report", "--sort", "image", "--top", "3", "{IN}"],
                 ["report", "--sort", "address", "{IN}"],
                 ["diff", "{ORIG}", "{IN}"], ["diff", "{IN}", "{ORIG}"]]
    if fmt != "dcpi" and event_names:
        a = event_names[0]
        b = event_names[-1]
        cmds += [["report", "--state", a, "{IN}"],
                 ["report", "--latency", f"{a},{b}", "--linreg", f"{a},{b}", "{IN}"]]
        cmds.append(["print", "-e", a, "-n", "50", "-f", "text", "{IN}"])
    cmds.append(["print", "--begin", "0.5", "--end", "1000", "-f", "json", "{IN}"])
    # Two inputs muxed, outputs on stdout.
    cmds += [["print", "-f", "json", "{IN}", "{ORIG}"],
             ["convert", "{IN}", "{ORIG}", "--to", "json", "-o", "{OUT}"],
             ["convert", "{IN}", "--to", "json", "-o", "-"],
             ["convert", "{IN}", "--to", "chrome", "-n", "100", "-o", "-"]]
    if fmt != "ctf":
        # Streamed from a pipe, not mapped: "-" with the input on stdin
        # (only perf.data is detected there; the others are named).
        named = [] if fmt == "perf" else ["-I", fmt]
        cmds += [["info"] + named + ["{STDIN}"], ["stats"] + named + ["{STDIN}"],
                 ["print", "-f", PRINT_STYLES[fmt][-1]] + named + ["{STDIN}"],
                 ["convert"] + named + ["{STDIN}", "--to", "ctf", "-o", "{OUT}"]]
    for to in CONVERT_TO:
        cmds.append(["convert", "{IN}", "--to", to, "-o", "{OUT}"])
    # Format confusion: every other reader forced onto these bytes.
    for other in PRINT_STYLES:
        if other != fmt:
            cmds.append(["print", "-I", other, "{IN}"])
    return cmds


class Input:
    def __init__(self, rel, fmt, path):
        self.rel, self.fmt, self.path = rel, fmt, path
        self.is_dir = os.path.isdir(path)
        self.commands = []  # filled by the baseline run


def record_starts(data):
    """Offsets of the records of a perf.data image (file or pipe mode) and
    of the sections of a CPEL file: the fields worth damaging (sizes,
    types, counts) sit at and just after them."""
    import struct
    starts = []
    if data[:8] == b"PERFILE2" and len(data) >= 16:
        hsize = struct.unpack_from("<Q", data, 8)[0]
        if hsize == 16:
            off, end = 16, len(data)
        elif len(data) >= 0x38:
            off, size = struct.unpack_from("<QQ", data, 0x28)
            end = min(len(data), off + size)
            # feature bits, the attrs, the feature section table
            starts += [0x48 + 8 * i for i in range(4)] + \
                [struct.unpack_from("<Q", data, 0x18)[0], off + size]
        else:
            return starts
        while off + 8 <= end and len(starts) < 100000:
            size = struct.unpack_from("<H", data, off + 6)[0]
            starts.append(off)
            if size < 8:
                break
            off += size
    elif data[:1] in (b"\x01", b"\x81") and len(data) >= 8:
        le = data[0] & 0x80
        n = struct.unpack_from("<H" if le else ">H", data, 2)[0]
        off = 8
        for _ in range(n):
            if off + 8 > len(data):
                break
            starts.append(off)
            length = struct.unpack_from("<I" if le else ">I", data, off + 4)[0]
            starts.append(off + 8 + 64)  # counts follow the table name
            off += 8 + length
    return starts


def mutate_bytes(rng, data, text_like, hot=()):
    """Damages data (bytearray) in place with 1..8 operations; hot lists
    offsets where structure starts (aimed at 30% of the time)."""
    n_ops = min(8, 1 + int(rng.expovariate(0.6)))
    for _ in range(n_ops):
        size = len(data)
        if size == 0:
            data += bytes(rng.randrange(256) for _ in range(rng.randrange(1, 16)))
            continue

        def pos():
            # Headers and length fields live near the start (and perf's
            # feature sections near the end): aim there more often.
            r = rng.random()
            if hot and r < 0.3:
                return min(size - 1, rng.choice(hot) + rng.randrange(24))
            r = rng.random()
            if r < 0.4:
                return rng.randrange(min(size, 1024))
            if r < 0.5:
                return max(0, size - 1 - rng.randrange(min(size, 1024)))
            return rng.randrange(size)

        op = rng.randrange(10)
        if op == 0:
            p = pos()
            data[p] ^= 1 << rng.randrange(8)
        elif op == 1:
            data[pos()] = rng.randrange(256)
        elif op in (2, 3, 4):
            width = rng.choice([1, 2, 4, 8])
            p = pos()
            if width > 1 and rng.random() < 0.7:
                p -= p % width  # length fields are aligned
            val = rng.choice(INTERESTING) & ((1 << (8 * width)) - 1)
            if rng.random() < 0.3:
                val = (val + rng.randrange(-4, 5)) & ((1 << (8 * width)) - 1)
            order = rng.choice(["little", "big"])
            b = val.to_bytes(width, order)
            data[p:p + width] = b[:max(0, min(width, size - p))]
        elif op == 5:
            p = pos()
            data[p:p] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 17)))
        elif op == 6:
            p = pos()
            del data[p:p + rng.randrange(1, 65)]
        elif op == 7 and size > 8:
            a = rng.randrange(size)
            n = rng.randrange(1, min(256, size - a) + 1)
            chunk = bytes(data[a:a + n])
            p = pos()
            if rng.random() < 0.5:
                data[p:p] = chunk
            else:
                data[p:p + n] = chunk
        elif op == 8 and rng.random() < 0.5:
            del data[rng.randrange(size):]
        elif op == 9 and text_like:
            # TSDL: replace a number with a hostile one, or drop a token.
            nums = [m.span() for m in re.finditer(rb"\d+", data)]
            if nums and rng.random() < 0.7:
                a, b = rng.choice(nums)
                data[a:b] = str(rng.choice(INTERESTING + [rng.randrange(1 << 20)])).encode()
            else:
                toks = [m.span() for m in re.finditer(rb"[A-Za-z_]+|[{};=:<>\[\]]", data)]
                if toks:
                    a, b = rng.choice(toks)
                    del data[a:b]
        else:
            data[pos()] ^= 0xff
    return data


def make_case(rng, inp, case_dir):
    """Writes a damaged copy of inp into case_dir; returns its path and a
    short description of what was damaged."""
    if not inp.is_dir:
        data = bytearray(open(inp.path, "rb").read())
        mutate_bytes(rng, data, False, record_starts(data))
        dst = os.path.join(case_dir, "in_" + os.path.basename(inp.path))
        with open(dst, "wb") as f:
            f.write(data)
        return dst, os.path.basename(inp.path)
    dst = os.path.join(case_dir, "in_trace")
    shutil.copytree(inp.path, dst, symlinks=False)
    files = sorted(os.path.relpath(os.path.join(r, f), dst)
                   for r, _, fs in os.walk(dst) for f in fs)
    meta = [f for f in files if os.path.basename(f) == "metadata"]
    streams = [f for f in files if os.path.basename(f) != "metadata"]
    targets = []
    if meta and (not streams or rng.random() < 0.4):
        targets.append(rng.choice(meta))
    if streams and (not targets or rng.random() < 0.2):
        targets.append(rng.choice(streams))
    for rel in targets:
        p = os.path.join(dst, rel)
        os.chmod(p, 0o644)
        data = bytearray(open(p, "rb").read())
        text = data[:7] == b"/* CTF " or data[:4] == b"/* C"
        mutate_bytes(rng, data, text)
        with open(p, "wb") as f:
            f.write(data)
    return dst, ",".join(targets)


def run(tk, args, timeout, env, stdin_path=None):
    """Runs tracekit; returns (status, stdout tail, stderr, seconds, max RSS
    in MiB). status is the exit code, -signal, or None for a timeout."""
    t0 = time.monotonic()
    fin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    p = subprocess.Popen([tk] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         stdin=fin, env=env, start_new_session=True)
    if stdin_path:
        fin.close()
    timed_out = []

    def kill():
        timed_out.append(True)
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    timer = threading.Timer(timeout, kill)
    timer.start()
    chunks = {}

    def drain(name, f):
        chunks[name] = f.read()

    readers = [threading.Thread(target=drain, args=("out", p.stdout)),
               threading.Thread(target=drain, args=("err", p.stderr))]
    for t in readers:
        t.start()
    # wait4 rather than Popen.wait: it gives this child's own peak RSS.
    _, wstatus, usage = os.wait4(p.pid, 0)
    timer.cancel()
    for t in readers:
        t.join()
    p.stdout.close()
    p.stderr.close()
    p.returncode = os.waitstatus_to_exitcode(wstatus)
    status = None if timed_out else p.returncode
    return status, chunks["out"][-2000:], chunks["err"], time.monotonic() - t0, \
        usage.ru_maxrss // 1024


def expand(cmd, damaged, orig, out_path):
    """The argument list of cmd, and the file to give on stdin (or None)."""
    stdin = damaged if "{STDIN}" in cmd else None
    args = [x.replace("{STDIN}", "-").replace("{IN}", damaged).replace("{ORIG}", orig)
            .replace("{OUT}", out_path) for x in cmd]
    return args, stdin


def check(status, err, inp_paths, out_dir, rss_mb, a):
    """Returns the reason a run failed, or None."""
    if status is None:
        return f"hang: no exit after {a.timeout} s"
    m = SANITIZER_RE.search(err)
    if m:
        return "sanitizer: " + m.group(0).decode(errors="replace")
    if status < 0:
        return f"killed by signal {-status}"
    if status not in (0, 1):
        return f"exit status {status}"
    if rss_mb > a.max_rss_mb:
        return f"used {rss_mb} MiB (over --max-rss-mb {a.max_rss_mb})"
    if status == 1:
        text = err.decode(errors="replace")
        if not any(p in text for p in inp_paths):
            return "exit 1 without a message naming the input file"
    if out_dir is not None:
        left = os.listdir(out_dir)
        if status == 1 and left:
            return "failed conversion left files behind: " + ",".join(sorted(left))
        if status == 0 and [f for f in left if f != "out"]:
            return "conversion left extra files: " + ",".join(sorted(left))
    return None


def baseline(tk, inputs, timeout, env, log):
    """Runs every command on the intact inputs: keeps the commands that
    succeed there (or, for inputs already bad, fail cleanly), and learns
    event names for the reports."""
    work = tempfile.mkdtemp(prefix="tk-mutate-base-")
    try:
        for inp in inputs:
            names = []
            status, out, err, _, _ = run(tk, ["print", "-f", "json", "-n", "200", inp.path],
                                      timeout, env)
            for m in re.finditer(rb'"event":"([^"\\]{1,60})"', out):
                n = m.group(1).decode()
                if n not in names and "," not in n:
                    names.append(n)
            for cmd in commands_for(inp.fmt, names[:3]):
                out_dir = os.path.join(work, "o")
                shutil.rmtree(out_dir, ignore_errors=True)
                os.mkdir(out_dir)
                if "{STDIN}" in cmd and inp.is_dir:
                    continue
                args, stdin = expand(cmd, inp.path, inp.path, os.path.join(out_dir, "out"))
                status, _, err, secs, _ = run(tk, args, timeout, env, stdin)
                if status == 0 and secs < timeout / 3:
                    inp.commands.append(cmd)
                elif status == 1 and inp.rel.split("/")[-1].startswith(("bad", "invalid")):
                    inp.commands.append(cmd)
                elif status not in (0, 1) or SANITIZER_RE.search(err):
                    log(f"BASELINE FAIL {inp.rel}: {' '.join(args)}: status {status}: "
                        f"{err[-300:].decode(errors='replace')}")
            if not inp.commands:
                log(f"note: no usable command for {inp.rel}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def readback_ok(tk, out_path, timeout, env):
    """Output tracekit wrote must read back with tracekit."""
    if not os.path.exists(out_path):
        return True, ""
    status, _, err, _, _ = run(tk, ["stats", out_path], timeout, env)
    if status == 0:
        return True, ""
    return False, f"own output does not read back (stats exit {status}): " + \
        err[-400:].decode(errors="replace").strip()


def one_case(a, inputs, case, env, keep=None):
    """Runs case number `case`; returns (list of failure lines, runs)."""
    rng = random.Random(f"{a.seed}/{case}")
    inp = rng.choice(inputs)
    case_dir = tempfile.mkdtemp(prefix=f"tk-mutate-{a.seed}-{case}-", dir=a.work)
    failures = []
    runs = 0
    statuses = {}
    try:
        path, what = make_case(rng, inp, case_dir)
        cmds = rng.sample(inp.commands, min(a.cmds_per_case, len(inp.commands)))
        for cmd in cmds:
            out_dir = None
            out_path = ""
            if "{OUT}" in cmd:
                out_dir = os.path.join(case_dir, "o")
                shutil.rmtree(out_dir, ignore_errors=True)
                os.mkdir(out_dir)
                out_path = os.path.join(out_dir, "out")
            if "{STDIN}" in cmd and inp.is_dir:
                continue
            args, stdin = expand(cmd, path, inp.path, out_path)
            status, _, err, _, rss = run(a.tk, args, a.timeout, env, stdin)
            runs += 1
            key = f"{inp.fmt}:{status}"
            statuses[key] = statuses.get(key, 0) + 1
            names = [path, inp.path] + (["tracekit: -:"] if stdin else [])
            reason = check(status, err, names, out_dir, rss, a)
            readable = "--to" in cmd and cmd[cmd.index("--to") + 1] in READABLE
            if reason is None and out_dir is not None and status == 0 and a.readback \
                    and readable:
                ok, why = readback_ok(a.tk, out_path, a.timeout, env)
                if not ok:
                    reason = why
            if reason:
                text = err.decode(errors="replace")
                m = re.search(r"ERROR: \w+Sanitizer|runtime error:", text)
                # A sanitizer report's head says what and where; else the end.
                tail = text[m.start():][:3000] if m else text[-1500:].strip()
                failures.append(
                    f"FAIL seed={a.seed} case={case} input={inp.rel} damaged={what}\n"
                    f"  cmd: tracekit {' '.join(cmd)}\n  reason: {reason}\n"
                    f"  replay: {sys.argv[0]} --tk {a.tk} --testdata {a.testdata} "
                    f"--seed {a.seed} --formats {a.formats} "
                    f"--inputs-per-format {a.inputs_per_format} "
                    f"--cmds-per-case {a.cmds_per_case}"
                    f"{'' if a.baseline else ' --no-baseline'} --replay {case} --keep DIR\n"
                    + "".join("  | " + line + "\n" for line in tail.splitlines()[:30]))
            if keep is not None:
                print(f"{'FAIL' if reason else 'ok  '} status={status} "
                      f"tracekit {' '.join(args)}\n     {err[-600:].decode(errors='replace')}")
    finally:
        if keep is not None:
            if os.path.exists(keep):
                shutil.rmtree(keep)
            shutil.copytree(case_dir, keep, symlinks=True)
            print(f"case kept in {keep}")
        shutil.rmtree(case_dir, ignore_errors=True)
    return failures, runs, statuses


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tk", required=True, help="tracekit binary (ASan+UBSan build)")
    ap.add_argument("--testdata", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=500, help="damaged inputs to make")
    ap.add_argument("--first-case", type=int, default=0)
    ap.add_argument("--time-limit", type=float, default=0,
                    help="stop starting cases after this many seconds (0: none)")
    ap.add_argument("--cmds-per-case", type=int, default=4)
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--max-rss-mb", type=int, default=1024,
                    help="peak memory of one run (ASan's shadow included)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--formats", default="perf,ctf,cpel,elog,dcpi")
    ap.add_argument("--inputs-per-format", type=int, default=0,
                    help="use only N inputs of each format, chosen by the seed (0: all)")
    ap.add_argument("--no-baseline", dest="baseline", action="store_false",
                    help="skip the run over intact inputs (faster; keeps every command)")
    ap.add_argument("--no-readback", dest="readback", action="store_false")
    ap.add_argument("--max-failures", type=int, default=50)
    ap.add_argument("--replay", type=int, help="rerun this case number verbosely")
    ap.add_argument("--keep", help="with --replay: copy the damaged input here")
    ap.add_argument("--work", default=None, help="scratch directory (default: TMPDIR)")
    a = ap.parse_args()
    a.tk = os.path.abspath(a.tk)
    a.testdata = os.path.abspath(a.testdata)
    if a.work is None:
        a.work = tempfile.mkdtemp(prefix="tk-mutate-")
        own_work = True
    else:
        os.makedirs(a.work, exist_ok=True)
        own_work = False

    env = dict(os.environ)
    # Small quarantine so RSS means the program's memory; leaks are bugs;
    # an allocation over 1 GiB is treated as a crash (unbounded allocation).
    env["ASAN_OPTIONS"] = ("detect_leaks=1:quarantine_size_mb=16:allocator_may_return_null=0:"
                           "max_allocation_size_mb=1024:abort_on_error=0:"
                           "handle_abort=1:detect_stack_use_after_return=0")
    env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    env["LSAN_OPTIONS"] = "suppressions=" + os.path.join(os.path.dirname(
        os.path.abspath(__file__)), "lsan.supp")
    env.setdefault("TZ", "UTC")
    env["LC_ALL"] = "C"
    # No terminal progress lines in the captured stderr.
    env.pop("TERM", None)

    formats = a.formats.split(",")
    sel = random.Random(f"{a.seed}/inputs")
    inputs = []
    for fmt in formats:
        rels = list(INPUTS[fmt])
        if fmt == "ctf":
            bare = os.path.join(a.testdata, "ctf/barectf")
            if os.path.isdir(bare):
                names = sorted(os.listdir(bare))
                rels += ["ctf/barectf/" + n for n in sel.sample(names, min(BARECTF_PER_RUN, len(names)))]
        if a.inputs_per_format:
            rels = sel.sample(rels, min(a.inputs_per_format, len(rels)))
        for rel in rels:
            p = os.path.join(a.testdata, rel)
            if os.path.exists(p):
                inputs.append(Input(rel, fmt, p))

    lines = []
    lock = threading.Lock()

    def log(msg):
        with lock:
            print(msg, flush=True)

    t0 = time.monotonic()
    if a.baseline:
        baseline(a.tk, inputs, a.timeout, env, log)
    else:
        for inp in inputs:
            inp.commands = [c for c in commands_for(inp.fmt, [])
                            if not ("{STDIN}" in c and inp.is_dir)]
    inputs = [i for i in inputs if i.commands]
    if not inputs:
        log("no input usable: is --testdata right?")
        return 77
    n_cmds = sum(len(i.commands) for i in inputs)
    log(f"mutate_cli: seed {a.seed}, {len(inputs)} inputs, {n_cmds} commands, "
        f"baseline {time.monotonic() - t0:.0f} s")

    if a.replay is not None:
        fails, _, _ = one_case(a, inputs, a.replay, env, keep=a.keep or os.path.join(a.work, "kept"))
        for f in fails:
            print(f)
        return 1 if fails else 0

    total_runs = 0
    done = 0
    all_statuses = {}
    t1 = time.monotonic()

    def worker(case):
        if a.time_limit and time.monotonic() - t1 > a.time_limit:
            return [], 0, {}, False
        fails, runs, statuses = one_case(a, inputs, case, env)
        return fails, runs, statuses, True

    with ThreadPoolExecutor(max_workers=a.jobs) as ex:
        for fails, runs, statuses, ran in ex.map(worker, range(a.first_case, a.first_case + a.cases)):
            total_runs += runs
            done += ran
            for k, v in statuses.items():
                all_statuses[k] = all_statuses.get(k, 0) + v
            for f in fails:
                lines.append(f)
                log(f)
            if done and done % 200 == 0 and ran:
                log(f"... {done} cases, {total_runs} runs, {len(lines)} failures, "
                    f"{time.monotonic() - t1:.0f} s")
            if len(lines) >= a.max_failures:
                log("too many failures, stopping")
                break
    log(f"mutate_cli: seed {a.seed}: {done} cases, {total_runs} runs, {len(lines)} failures "
        f"in {time.monotonic() - t1:.0f} s")
    log("exit statuses (format:status runs): " +
        " ".join(f"{k} {v}" for k, v in sorted(all_statuses.items())))
    if own_work:
        shutil.rmtree(a.work, ignore_errors=True)
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main())
