#!/usr/bin/python3
"""One loop per format (issue 12): a format's records are iterated only by
its own folder (src/<fmt>/) and its session driver (src/session/). Every
other consumer gets them from a session (tk_session_run / tk_session_next)
or from a format's own callback walk.

A "record loop over a format reader" is a call of a reader's pull function
(one that hands out the next record; such a call is only ever made in a
loop). Comments and string literals are ignored. The scan covers the
library (src/), the CLI (tools/) and the Python module (python/); tests and
benches may walk readers directly (they check the readers).

usage: check_one_loop.py ROOT   (exit 1 listing each offending call)"""
import os
import re
import sys

# pull function -> the folders where calling it is the format's own loop
PULLS = {
    "tk_perf_next": ("src/perf/", "src/session/"),
    "ctf_reader_next": ("src/ctf/", "src/session/"),
    "ctf_reader_span": ("src/ctf/", "src/session/"),
    "tk_dcpi_next_chunk": ("src/dcpi/", "src/session/"),
    # CPEL: the cursor and indexed access to a section's records
    "tk_cpel_cursor_next": ("src/cpel/", "src/session/"),
    "tk_cpel_event_at": ("src/cpel/", "src/session/"),
    # model events: the dispatcher itself (src/model), the formats'
    # adapters (a format source may wrap another), the session's model driver
    "tk_source_next": ("src/model/", "src/perf/", "src/ctf/", "src/cpel/", "src/dcpi/",
                       "src/session/"),
}

# Loops still outside a session, each in a file this change does not own:
# (path, function) -> who owns it and why it stays for now. A call listed
# here passes; a listed call that is gone is reported (remove the line).
KNOWN = {
}

SCANNED = ("src", "tools", "python")
CALL = re.compile(r"\b(" + "|".join(PULLS) + r")\s*\(")
# comments and literals out, newlines kept so line numbers stay right
STRIP = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def blank(m):
    return re.sub(r"[^\n]", " ", m.group(0))


def scan(root):
    found = []
    for top in SCANNED:
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if not f.endswith((".c", ".h")):
                    continue
                path = os.path.join(d, f)
                rel = os.path.relpath(path, root)
                with open(path, encoding="utf-8", errors="replace") as fh:
                    text = STRIP.sub(blank, fh.read())
                for m in CALL.finditer(text):
                    fn = m.group(1)
                    if rel.startswith(PULLS[fn]):
                        continue
                    line = text.count("\n", 0, m.start()) + 1
                    found.append((rel, fn, line))
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    found = scan(root)
    bad = [(p, fn, ln) for p, fn, ln in found if (p, fn) not in KNOWN]
    seen = {(p, fn) for p, fn, _ in found}
    for (p, fn), why in sorted(KNOWN.items()):
        if (p, fn) in seen:
            print("known, outside a session: %s: %s (%s)" % (p, fn, why))
        elif os.path.exists(os.path.join(root, SCANNED[0])):
            print("note: %s no longer calls %s: drop it from KNOWN" % (p, fn))
    for p, fn, ln in bad:
        print("record loop outside its format and session: %s:%d: %s()" % (p, ln, fn))
    if bad:
        return 1
    print("one loop per format: ok (%d known exceptions)" % len(seen & set(KNOWN)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
