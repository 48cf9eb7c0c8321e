"""SIGINT checks for tests/oracle/cli_interrupt.sh.

Deterministic by construction:
- print FILE: the output (tens of MB) goes to a pipe this script stops
  reading after the first line, so tracekit is blocked writing when SIGINT
  comes (its handler is installed before the first line is printed);
- print -: this script is the writer of stdin; it sends SIGINT after
  tracekit has read more than a pipe's capacity (so it is running and its
  handler installed), then sends the rest and closes: every event must be
  printed, and the exit status still says 130;
- convert FILE -o OUT: the input is a FIFO fed by this script (a perf pipe
  stream), so the converter is blocked reading when SIGINT comes; the next
  record ends it: OUT must not exist, nor any temporary beside it.
"""
import os, signal, subprocess, sys, tempfile, threading

tk, testdata = sys.argv[1], sys.argv[2]
big = os.path.join(testdata, "perf/pdc/with-callchain.perf.data")
pipe_data = os.path.join(testdata, "perf/lpd/fibo.compressed2.pipe.data")
failed = 0
NL = b"\n"


def fail(msg):
    global failed
    failed += 1
    print("FAIL", msg)


def check_common(name, rc, err, out, whole):
    if rc != 130:
        fail(f"{name}: exit status {rc}, not 130")
    if b"tracekit: interrupted" not in err:
        fail(f"{name}: no 'interrupted' on stderr: {err[-200:]!r}")
    if out and not out.endswith(b"\n"):
        fail(f"{name}: the output ends inside a line")
    if not whole.startswith(out):
        fail(f"{name}: the output is not a prefix of the uninterrupted one")


# 1. print FILE, blocked on its output
whole = subprocess.run([tk, "print", big], capture_output=True).stdout
p = subprocess.Popen([tk, "print", big], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
first = p.stdout.readline()
p.send_signal(signal.SIGINT)
out = first + p.stdout.read()
err = p.stderr.read()
rc = p.wait()
check_common("print FILE", rc, err, out, whole)
if len(out) >= len(whole):
    fail("print FILE: printed everything although interrupted")
print(f"ok   print FILE: {out.count(NL)} of {whole.count(NL)} lines, then exit {rc}")

# 2. print -: the first SIGINT lets the rest of stdin through
data = open(pipe_data, "rb").read()
whole = subprocess.run([tk, "print", "-"], input=data, capture_output=True).stdout
p = subprocess.Popen([tk, "print", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE)
got = []
reader = threading.Thread(target=lambda: got.append(p.stdout.read()))
reader.start()
cut = 80 * 1024  # more than a pipe holds: tracekit has read (and is running) once this returns
if len(data) <= cut:
    fail("print -: test input too small")
p.stdin.write(data[:cut])
p.stdin.flush()
p.send_signal(signal.SIGINT)
p.stdin.write(data[cut:])
p.stdin.close()
reader.join()
err = p.stderr.read()
rc = p.wait()
check_common("print -", rc, err, got[0], whole)
if got[0] != whole:
    fail(f"print -: {got[0].count(NL)} lines, not all {whole.count(NL)}")
else:
    print(f"ok   print -: all {whole.count(NL)} lines after SIGINT, exit {rc}")

# 3. convert from a FIFO, blocked reading
with tempfile.TemporaryDirectory() as d:
    fifo = os.path.join(d, "in.data")
    os.mkfifo(fifo)
    out_path = os.path.join(d, "out.json")
    p = subprocess.Popen([tk, "convert", "-I", "perf", fifo, "-o", out_path],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    w = open(fifo, "wb")
    w.write(data[:cut])
    w.flush()
    p.send_signal(signal.SIGINT)
    try:
        w.write(data[cut:])
        w.close()
    except BrokenPipeError:
        pass
    err = p.stderr.read()
    rc = p.wait()
    left = sorted(os.listdir(d))
    if rc == 130 and b"interrupted" in err and left == ["in.data"]:
        print(f"ok   convert: exit {rc}, no output and no temporary left")
    else:
        fail(f"convert: exit {rc}, stderr {err[-200:]!r}, left {left}")
sys.exit(1 if failed else 0)
