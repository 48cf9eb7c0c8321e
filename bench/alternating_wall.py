#!/usr/bin/env python3
"""Several commands timed in alternating rounds (each round runs every
command once, so a slow minute of this shared VM lands on all of them):
best and median wall time and best CPU time (user + sys) of each.

Usage: bench/alternating_wall.py OUT ROUNDS 'LABEL|ENV|ARGV...' ...
  OUT: where each command's stdout goes (a regular file is removed before
       each run, outside the timing; /dev/null is left alone)
  ENV: NAME=VALUE pairs separated by commas, or empty; the argv after it
       is separated by '|'
e.g. bench/alternating_wall.py /tmp/o.txt 11 \\
       'one|TRACEKIT_LANES=1|build/bin/tracekit|print|--format|babeltrace|TRACE' \\
       'two||build/bin/tracekit|print|--format|babeltrace|TRACE'"""
import os
import stat
import statistics
import sys
import time

if len(sys.argv) < 4:
    sys.exit(__doc__)
out, rounds = sys.argv[1], int(sys.argv[2])
cmds = [c.split("|") for c in sys.argv[3:]]
walls = {c[0]: [] for c in cmds}
cpus = {c[0]: [] for c in cmds}
for _ in range(rounds):
    for label, envs, *argv in cmds:
        try:
            if stat.S_ISREG(os.stat(out).st_mode):
                os.unlink(out)
        except FileNotFoundError:
            pass
        env = dict(os.environ)
        for kv in filter(None, envs.split(",")):
            k, v = kv.split("=", 1)
            env[k] = v
        t0 = time.monotonic()
        pid = os.fork()
        if pid == 0:
            fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(fd, 1)
            os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
            try:
                os.execvpe(argv[0], argv, env)
            finally:
                os._exit(127)
        _, status, ru = os.wait4(pid, 0)
        walls[label].append(time.monotonic() - t0)
        cpus[label].append(ru.ru_utime + ru.ru_stime)
        if status != 0:
            print("%s: exit status %d" % (label, status >> 8), file=sys.stderr)
for label, _, *_ in cmds:
    print("%-12s best wall %.3f s  median %.3f s  best cpu %.3f s" %
          (label, min(walls[label]), statistics.median(walls[label]), min(cpus[label])))
