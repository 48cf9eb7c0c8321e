#!/usr/bin/env python3
"""Where a run's anonymous memory is: /proc/PID/smaps read every
millisecond while COMMAND runs, each mapping's largest Anonymous figure
kept, the mappings of 512 KiB or more printed (the heap, huge-page
buffers, thread stacks) and their sum. On this VM fresh memory is the
costliest thing a short run touches (bench/README, sessions 36-39), so
this is how a change's memory is checked, mapping by mapping.

Usage: bench/anon_peak.py COMMAND [ARGS...]   (its output is discarded)
A sample every millisecond can miss a mapping's last growth just before
it is unmapped; run it a few times."""
import collections
import re
import subprocess
import sys
import time

if len(sys.argv) < 2:
    sys.exit(__doc__)
proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
peak = collections.defaultdict(int)  # (start, size, name) -> KiB
head = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$")
while proc.poll() is None:
    try:
        with open("/proc/%d/smaps" % proc.pid) as f:
            text = f.read()
    except OSError:
        break
    mapping = None
    for line in text.splitlines():
        m = head.match(line)
        if m:
            mapping = (m.group(1), int(m.group(2), 16) - int(m.group(1), 16), m.group(3) or "anon")
        elif line.startswith("Anonymous:") and mapping:
            peak[mapping] = max(peak[mapping], int(line.split()[1]))
    time.sleep(0.001)
for (start, size, name), kib in sorted(peak.items(), key=lambda kv: -kv[1]):
    if kib >= 512:
        print("%8.1f MB  %s (%.1f MB mapped) %s" % (kib / 1024, start, size / 2**20, name))
print("sum of each mapping's peak: %.1f MB (exit status %d)" % (sum(peak.values()) / 1024, proc.wait()))
