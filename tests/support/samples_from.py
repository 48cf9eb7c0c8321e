#!/usr/bin/env python3
"""Normalises samples to "pid/tid time period ip" lines so that tracekit's
JSON and perf script's text can be compared sample for sample.

  samples_from.py json   < tracekit-print-json   (only "type":"sample" lines)
  samples_from.py script < perf-script-output     (-F pid,tid,time,ip,period --ns -G)
"""
import json
import re
import sys

def from_json(stream):
    for line in stream:
        obj = json.loads(line)
        if obj.get("type") != "sample":
            continue
        # integers beyond 2^53 come as strings (JSON readers use doubles)
        t = int(obj.get("time", 0))
        ip = int(obj.get("ip", "0x0"), 16)
        yield "%d/%d %d.%09d %d %x" % (int(obj.get("pid", -1)), int(obj.get("tid", -1)),
                                      t // 10**9, t % 10**9, int(obj.get("period", 0)), ip)

SCRIPT = re.compile(r"^\s*(-?\d+)/(-?\d+)\s+(\d+)\.(\d+):\s+(\d+)\s+([0-9a-f]+)\s*$")

def from_script(stream):
    for line in stream:
        m = SCRIPT.match(line)
        if not m:
            if line.strip():
                sys.stderr.write("unparsed perf script line: %r\n" % line)
                sys.exit(2)
            continue
        pid, tid, sec, ns, period, ip = m.groups()
        yield "%s/%s %s.%s %s %x" % (pid, tid, sec, ns.ljust(9, "0"), period, int(ip, 16))

def main():
    kind = sys.argv[1]
    gen = from_json if kind == "json" else from_script
    for out in gen(sys.stdin):
        print(out)

main()
