#!/usr/bin/python3
"""Folder rules of tracekit, checked (stands in for `farm-studio look`).

Builds the dependency graph of src/, tools/, include/ (and python/, folder
level only) from two sources:
  - #include "..." lines (a header is resolved next to the including file,
    then below src/, then below include/);
  - when a build directory is given, the symbols of the object files
    (nm): file A depends on file B when A uses a global symbol B defines.
    This is what finds a circle hidden behind a shared header (a function
    declared in perf_internal.h but defined in perf_open.c, which itself
    calls the files that call it).
A file and its header are one module (x.c + x.h, and x_inline.h); a folder is a file's
directory, and its layer is the longest folder prefix listed in the
```layers block of docs/ARCHITECTURE.md (bottom layer first; folders on one
line are peers and may not use each other). A subfolder that is not listed
belongs to its listed parent (src/perf/writer is part of src/perf): folder
cycles are looked for between listed folders, file cycles everywhere.

Fails (exit 1) on: a cycle between modules (src/, tools/, include/), a cycle
between folders, a use of a higher layer or of a peer, a folder with no
layer. Prints the folder graph first.

usage: check_layers.py [--root DIR] [--build DIR] [--quiet]
"""
import argparse
import collections
import os
import re
import subprocess
import sys

TOPS = ("src", "tools", "include", "python")
CYCLE_TOPS = ("src/", "tools/", "include/")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def list_files(root):
    out = []
    for top in TOPS:
        for d, dirs, fs in os.walk(os.path.join(root, top)):
            dirs.sort()
            for f in sorted(fs):
                if f.endswith((".c", ".h")):
                    out.append(os.path.relpath(os.path.join(d, f), root))
    return out


def read_layers(root):
    path = os.path.join(root, "docs", "ARCHITECTURE.md")
    layers, inside = [], False
    with open(path, encoding="utf-8") as f:
        for line in f:
            s = line.strip()
            if s == "```layers":
                inside = True
                continue
            if inside and s.startswith("```"):
                break
            if inside:
                s = s.split("#", 1)[0].strip()
                if s:
                    layers.append(s.split())
    if not layers:
        sys.exit("check-layers: no ```layers block in docs/ARCHITECTURE.md")
    rank = {}
    for i, folders in enumerate(layers):
        for fo in folders:
            rank[fo.rstrip("/")] = i
    return layers, rank


def layer_of(folder, rank):
    """The longest listed prefix of folder, or None."""
    best = None
    for fo in rank:
        if folder == fo or folder.startswith(fo + "/"):
            if best is None or len(fo) > len(best):
                best = fo
    return best


def module(path):
    # x_inline.h is the inline half of x.h's interface (static inline
    # functions a hot loop needs): it belongs to module x.
    stem = os.path.splitext(path)[0]
    if path.endswith("_inline.h"):
        stem = stem[: -len("_inline")]
    return stem


def include_edges(root, files):
    fileset = set(files)
    edges = collections.defaultdict(set)
    for f in files:
        with open(os.path.join(root, f), errors="replace") as fh:
            for line in fh:
                m = INCLUDE_RE.match(line)
                if not m:
                    continue
                for base in (os.path.dirname(f), "src", "include"):
                    t = os.path.normpath(os.path.join(base, m.group(1)))
                    if t in fileset:
                        if t != f:
                            edges[f].add((t, "include " + m.group(1)))
                        break
    return edges


def symbol_edges(build, fileset):
    objs = {}
    for d, dirs, fs in os.walk(build):
        dirs.sort()
        for f in sorted(fs):
            if not f.endswith(".c.o") or ".dir/" not in d + "/":
                continue
            full = os.path.join(d, f)
            rel = full.split(".dir/", 1)[1][:-2]
            if rel in fileset and rel not in objs:
                objs[rel] = full
    defs, undef = {}, collections.defaultdict(set)
    for rel, o in sorted(objs.items()):
        res = subprocess.run(["nm", "-P", o], capture_output=True, text=True)
        for line in res.stdout.splitlines():
            p = line.split()
            if len(p) < 2:
                continue
            if p[1] == "U":
                undef[rel].add(p[0])
            elif p[1] in "TDBRVWGS":
                defs.setdefault(p[0], rel)
    edges = collections.defaultdict(set)
    for a, syms in undef.items():
        for s in sorted(syms):
            b = defs.get(s)
            if b and b != a:
                edges[a].add((b, "calls " + s))
    return edges, len(objs)


def sccs(graph, nodes):
    """Tarjan, iterative; components of more than one node."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = 0
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--root", default=os.path.dirname(here))
    ap.add_argument("--build", default=os.environ.get("TK_BUILD_DIR"))
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    files = list_files(root)
    layers, rank = read_layers(root)

    edges = include_edges(root, files)
    nobj = 0
    if a.build and os.path.isdir(a.build):
        sedges, nobj = symbol_edges(a.build, set(files))
        for k, v in sedges.items():
            edges[k] |= v

    problems = []
    folder_edges = collections.defaultdict(lambda: [0, 0])
    folder_graph = collections.defaultdict(set)
    mod_graph = collections.defaultdict(set)
    why = {}
    for f in files:
        fa = os.path.dirname(f)
        la = layer_of(fa, rank)
        if la is None:
            problems.append("%s: folder %s has no layer in docs/ARCHITECTURE.md" % (f, fa))
        for t, reason in sorted(edges.get(f, ())):
            ft = os.path.dirname(t)
            ma, mt = module(f), module(t)
            if ma != mt and f.startswith(CYCLE_TOPS) and t.startswith(CYCLE_TOPS):
                mod_graph[ma].add(mt)
                why.setdefault((ma, mt), "%s: %s" % (f, reason))
            if fa == ft:
                continue
            kind = 0 if reason.startswith("include") else 1
            folder_edges[(fa, ft)][kind] += 1
            lt = layer_of(ft, rank)
            if la is not None and lt is not None and la != lt:
                folder_graph[la].add(lt)
            if la is None or lt is None or la == lt:
                continue
            if rank[lt] > rank[la]:
                problems.append("upward: %s (%s) -> %s (%s): %s" % (f, la, t, lt, reason))
            elif rank[lt] == rank[la]:
                problems.append("peer: %s (%s) -> %s (%s): %s" % (f, la, t, lt, reason))

    if not a.quiet:
        print("layers (bottom first): " + " | ".join(" ".join(l) for l in layers))
        print("edges from #include lines%s" %
              (" and %d object files' symbols" % nobj if nobj else " only (no build dir)"))
        print("folder graph (includes/symbol uses):")
        for (fa, ft), (ni, ns) in sorted(folder_edges.items()):
            print("  %-18s -> %-18s %3d/%d" % (fa, ft, ni, ns))

    for comp in sccs(folder_graph, sorted(folder_graph)):
        problems.append("folder cycle: " + " <-> ".join(comp))
    for comp in sccs(mod_graph, sorted(mod_graph)):
        cs = set(comp)
        detail = "; ".join(why[(x, y)] for x in comp for y in sorted(mod_graph[x] & cs))
        problems.append("file cycle: %s (%s)" % (" <-> ".join(comp), detail))

    for p in problems:
        print("check-layers: " + p)
    if problems:
        print("check-layers: %d problem(s)" % len(problems))
        return 1
    print("check-layers: ok (%d files, %d folders, no cycle, no upward or peer use)" %
          (len(files), len({os.path.dirname(f) for f in files})))
    return 0


if __name__ == "__main__":
    sys.exit(main())
