#!/usr/bin/env python3
"""Checks a Chrome Trace Event Format file as Perfetto UI and chrome://tracing
read it: a {"traceEvents": [...]} object; every event has the keys its phase
needs; "sf" references resolve in "stackFrames", whose parents resolve too.
Usage: check_chrome.py FILE MIN_EVENTS [--stacks]"""
import json
import sys

def main():
    path, min_events = sys.argv[1], int(sys.argv[2])
    want_stacks = "--stacks" in sys.argv
    with open(path) as f:
        doc = json.load(f)
    events = doc["traceEvents"]
    frames = doc.get("stackFrames", {})
    instant = [e for e in events if e.get("ph") == "i"]
    if len(instant) < min_events:
        sys.exit("only %d instant events, want >= %d" % (len(instant), min_events))
    for e in events:
        for key in ("name", "ph", "pid", "tid"):
            if key not in e:
                sys.exit("event without %r: %r" % (key, e))
        if e["ph"] == "i":
            if not isinstance(e.get("ts"), (int, float)) or e.get("s") not in ("t", "p", "g"):
                sys.exit("instant event without a numeric ts or scope: %r" % e)
        elif e["ph"] == "M":
            if "name" not in e.get("args", {}):
                sys.exit("metadata event without args.name: %r" % e)
        if "sf" in e and str(e["sf"]) not in frames:
            sys.exit("sf %r names no stack frame" % e["sf"])
    for fid, fr in frames.items():
        if "parent" in fr and str(fr["parent"]) not in frames:
            sys.exit("frame %s has a missing parent %r" % (fid, fr["parent"]))
    with_stack = sum(1 for e in instant if "sf" in e)
    if want_stacks and with_stack == 0:
        sys.exit("no event carries a stack")
    print("%d events (%d with stacks), %d frames" % (len(events), with_stack, len(frames)))

main()
