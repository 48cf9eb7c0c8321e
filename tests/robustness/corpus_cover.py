#!/usr/bin/env python3
"""Greedy set cover of a libFuzzer merge control file under a size cap.

  corpus_cover.py CONTROL_FILE OUT_DIR [--max-files N] [--max-bytes B]

CONTROL_FILE is what `fuzz_<t> -set_cover_merge=1 -use_counters=0
-merge_control_file=CONTROL_FILE EMPTY_DIR INPUT_DIR...` leaves (with
-merge=1 an input's FT line lists only the features new at its turn): the input paths, then per input its
features (FT) and covered edges (COV). This picks inputs one at a time,
each time the one that adds the most new features (run the merge with
-use_counters=0 and a feature is an edge; COV lines only list the edges
new to the merge process, so they are not per input), then the smallest,
until nothing new is left or the cap is
reached, and copies them to OUT_DIR. Prints what share of the edges and
features the kept set has.
"""

import argparse
import os
import shutil
import sys


def read_control(path):
    with open(path) as f:
        lines = f.read().split("\n")
    n = int(lines[0])
    files = lines[2:2 + n]
    ft = {}
    cov = {}
    for line in lines[2 + n:]:
        parts = line.split()
        if len(parts) < 2 or parts[0] not in ("FT", "COV"):
            continue
        idx = int(parts[1])
        (ft if parts[0] == "FT" else cov)[idx] = set(map(int, parts[2:]))
    return files, ft, cov


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("control")
    ap.add_argument("out")
    ap.add_argument("--max-files", type=int, default=150)
    ap.add_argument("--max-bytes", type=int, default=1 << 20)
    a = ap.parse_args()
    files, ft, cov = read_control(a.control)
    sizes = {i: os.path.getsize(files[i]) for i in ft if os.path.exists(files[i])}
    all_ft = set().union(*ft.values()) if ft else set()
    all_cov = set().union(*cov.values()) if cov else set()
    got_ft, got_cov = set(), set()
    chosen = []
    total = 0
    left = set(sizes)
    while left and len(chosen) < a.max_files:
        best = None
        best_key = None
        for i in left:
            if total + sizes[i] > a.max_bytes:
                continue
            key = (len(ft[i] - got_ft), -sizes[i])
            if best_key is None or key > best_key:
                best, best_key = i, key
        if best is None or best_key[0] == 0:
            break
        chosen.append(best)
        total += sizes[best]
        got_ft |= ft[best]
        got_cov |= cov.get(best, set())
        left.discard(best)
    os.makedirs(a.out, exist_ok=True)
    for i in chosen:
        shutil.copy(files[i], os.path.join(a.out, os.path.basename(files[i])))
    print(f"   greedy cover: {len(chosen)} files, {total} bytes, "
          f"features {len(got_ft)}/{len(all_ft)} (edges in the run: {len(all_cov)})",
          file=sys.stderr)


if __name__ == "__main__":
    main()
