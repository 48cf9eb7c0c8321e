#!/usr/bin/env python3
"""Two builds of one command, run in interleaved pairs (A B, B A, ...), so
that a change of the machine's load hits both: best and median wall time
of each, and the median of the per-pair ratio B/A with the number of pairs
where B was faster. For A/B checks of a change too small for separate
best-of-N runs on a noisy VM.

Usage: bench/ab_pairs.py BINARY_A BINARY_B PAIRS ARGS...
e.g.   bench/ab_pairs.py /tmp/tk_old build/bin/tracekit 30 \\
           print --format perf-script bench/work/perfscript-sizes-50mb.data
(output goes to /dev/null; set XDG_CACHE_HOME for a warm symbol cache)"""
import os
import statistics
import subprocess
import sys
import time

if len(sys.argv) < 5:
    sys.exit(__doc__)
a, b, n, args = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
ta, tb, ratio = [], [], []
with open(os.devnull, "w") as null:
    for i in range(n):
        order = ((a, ta), (b, tb)) if i % 2 == 0 else ((b, tb), (a, ta))
        for binary, times in order:
            t0 = time.perf_counter()
            subprocess.run([binary] + args, stdout=null, check=False)
            times.append(time.perf_counter() - t0)
        ratio.append(tb[-1] / ta[-1])
print("A best %.1f med %.1f ms | B best %.1f med %.1f ms | B/A median ratio %.3f, "
      "B faster in %d of %d" % (min(ta) * 1e3, statistics.median(ta) * 1e3,
                                min(tb) * 1e3, statistics.median(tb) * 1e3,
                                statistics.median(ratio), sum(r < 1 for r in ratio), n))
