#!/usr/bin/env python3
"""Greedy set cover of a libFuzzer merge control file under a size cap.

  corpus_cover.py CONTROL_FILE OUT_DIR [--features CONTROL_FILE2]
                  [--max-files N] [--max-bytes B]

CONTROL_FILE is what `fuzz_<t> -set_cover_merge=1 -use_counters=0
-merge_control_file=CONTROL_FILE EMPTY_DIR INPUT_DIR...` leaves (with
-merge=1 an input's FT line lists only the features new at its turn): the input paths, then per input its
features (FT) and covered edges (COV). This picks inputs one at a time,
each time the one that adds the most new features (run the merge with
-use_counters=0 and a feature is an edge; COV lines only list the edges
new to the merge process, so they are not per input), then the smallest,
until nothing new is left or the cap is
reached. With --features (the control file of the same inputs merged with
hit counts, -use_counters=1), the room left under the cap then goes to the
inputs that add the most new features of that file. The chosen inputs are
copied to OUT_DIR. Prints what share of the edges and
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
    ap.add_argument("--features")
    a = ap.parse_args()
    files, ft, cov = read_control(a.control)
    # Inputs by path, so that both control files speak of the same ones.
    by_path = {files[i]: ft[i] for i in ft if os.path.exists(files[i])}
    sizes = {p: os.path.getsize(p) for p in by_path}
    all_cov = set().union(*cov.values()) if cov else set()
    chosen = []
    state = {"total": 0}

    def cover(sets, what):
        universe = set().union(*sets.values()) if sets else set()
        got = set()
        for p in chosen:
            got |= sets.get(p, set())
        left = set(p for p in sets if p in sizes) - set(chosen)
        while left and len(chosen) < a.max_files:
            best = None
            best_key = None
            for p in left:
                if state["total"] + sizes[p] > a.max_bytes:
                    continue
                key = (len(sets[p] - got), -sizes[p])
                if best_key is None or key > best_key:
                    best, best_key = p, key
            if best is None or best_key[0] == 0:
                break
            chosen.append(best)
            state["total"] += sizes[best]
            got |= sets[best]
            left.discard(best)
        print(f"   greedy cover: {what} {len(got)}/{len(universe)} with {len(chosen)} files, "
              f"{state['total']} bytes", file=sys.stderr)

    cover(by_path, f"edges (the run saw {len(all_cov)})")
    if a.features:
        f_files, f_ft, _ = read_control(a.features)
        cover({f_files[i]: f_ft[i] for i in f_ft}, "features with hit counts")
    os.makedirs(a.out, exist_ok=True)
    for p in chosen:
        shutil.copy(p, os.path.join(a.out, os.path.basename(p)))


if __name__ == "__main__":
    main()
