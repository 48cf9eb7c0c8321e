#!/usr/bin/env bash
# Oracle: `convert -o x.svg` is XML (python3 xml.etree parses it) with one
# script and a frame group whose rectangles are the prefix tree of
# `convert --to folded`'s stacks: every frame's weight (in its title) is
# the sum of the folded weights under that prefix, its width is that
# weight scaled to the 1180 px drawing width and its x the weights before
# it, frames narrower than 0.1 px left out (flamegraph.pl's rule). Names
# come back from the XML exactly as folded prints them; a JIT symbol
# (perf-PID.map) named with "</script>", "<", "&" and a quote must not
# break the document or add a script. Testdata files and, when perf can
# record, fresh recordings (examples/workload.c; the JIT program x86_64
# only).
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}" "${TK_TESTDATA:?}"
work=$(mktemp -d)
jitmap=
trap 'rm -rf "$work"; [ -n "$jitmap" ] && rm -f "$jitmap"' EXIT
failed=0; checked=0

check() { # perf.data label [name that must appear]
  local in=$1 label=$2 must=${3:-}
  if ! "$TK" convert -q "$in" -o "$work/p.svg" 2>"$work/err" ||
     ! "$TK" convert -q "$in" -o "$work/p.folded" 2>>"$work/err"; then
    echo "FAIL $label: convert: $(head -3 "$work/err")"; failed=1; return
  fi
  if /usr/bin/python3 - "$work/p.svg" "$work/p.folded" "$label" "$must" <<'PY'; then checked=$((checked + 1)); else failed=1; fi
import re, sys
import xml.etree.ElementTree as ET
from collections import Counter
svg_path, folded_path, label, must = sys.argv[1:5]
NS = "{http://www.w3.org/2000/svg}"
errors = []
try:
    root = ET.parse(svg_path).getroot()
except ET.ParseError as e:
    print("FAIL %s: not XML: %s" % (label, e)); sys.exit(1)
if root.tag != NS + "svg":
    errors.append("root is %s" % root.tag)
if len(root.findall(".//" + NS + "script")) != 1:
    errors.append("%d script elements" % len(root.findall(".//" + NS + "script")))
groups = [g for g in root.iter(NS + "g") if g.get("id") == "frames"]
if len(groups) != 1:
    print("FAIL %s: no frames group" % label); sys.exit(1)
nodes = []
for g in groups[0]:
    title = g.find(NS + "title").text or ""
    m = re.match(r"^(.*) \((\d+) period, [\d.]+%\)$", title, re.S)
    r = g.find(NS + "rect")
    if not m or r is None:
        errors.append("frame without title/rect: %r" % title); continue
    nodes.append(dict(name=m.group(1), w=int(m.group(2)), x=float(r.get("x")),
                      y=float(r.get("y")), width=float(r.get("width"))))
# the folded prefix tree: path -> (weight, start)
want, start = {}, {}
stacks = []
for line in open(folded_path, encoding="utf-8", errors="surrogateescape"):
    stack, _, weight = line.rstrip("\n").rpartition(" ")
    stacks.append((stack.split(";"), int(weight)))
total = sum(w for _, w in stacks)
stacks.sort(key=lambda s: s[0])
x = 0
for frames, w in stacks:
    for d in range(1, len(frames) + 1):
        path = tuple(frames[:d])
        if path not in want:
            start[path] = x
            want[path] = 0
        want[path] += w
    x += w
want[()] = total; start[()] = 0
scale = 1180.0 / total
# depth from y: the root ("all") is the lowest row, 16 px per level
ybase = max(n["y"] for n in nodes)
for n in nodes:
    n["depth"] = round((ybase - n["y"]) / 16.0)
by_depth = {}
for n in sorted(nodes, key=lambda n: n["depth"]):
    if n["depth"] == 0:
        n["path"] = ()
        if n["name"] != "all":
            errors.append("root is %r" % n["name"])
    else:
        par = [p for p in by_depth.get(n["depth"] - 1, [])
               if p["x"] - 1e-3 <= n["x"] and n["x"] + n["width"] <= p["x"] + p["width"] + 1e-3]
        if len(par) != 1:
            errors.append("frame %r at depth %d has %d parents" % (n["name"], n["depth"], len(par))); continue
        n["path"] = par[0]["path"] + (n["name"],)
    by_depth.setdefault(n["depth"], []).append(n)
got = {n["path"]: n for n in nodes if "path" in n}
expect = {p for p, w in want.items() if w * scale >= 0.1}
if set(got) != expect:
    errors.append("frames differ from folded: missing %r, extra %r" %
                  (sorted(expect - set(got))[:3], sorted(set(got) - expect)[:3]))
for p, n in got.items():
    if p not in want:
        continue
    if n["w"] != want[p]:
        errors.append("%r: weight %d, folded %d" % (p, n["w"], want[p]))
    if abs(n["width"] - want[p] * scale) > 1e-3 or abs(n["x"] - (10 + start[p] * scale)) > 1e-3:
        errors.append("%r: x %.4f width %.4f, folded gives %.4f %.4f" %
                      (p, n["x"], n["width"], 10 + start[p] * scale, want[p] * scale))
if must and not any(n["name"] == must for n in nodes):
    errors.append("no frame named %r" % must)
for e in errors[:10]:
    print("FAIL %s: %s" % (label, e))
if not errors:
    print("ok %s: %d frames" % (label, len(nodes)))
sys.exit(1 if errors else 0)
PY
}

for f in pdc/with-callchain.perf.data perfparser/vector_static_gcc__perf.data \
         perfparser/cpp-inlining__cpp-inlining.perf.data simpleperf/perf_with_two_event_types.data \
         lpd/fibo.compressed2.pipe.data; do
  [ -f "$TK_TESTDATA/perf/$f" ] && check "$TK_TESTDATA/perf/$f" "$f"
done
if command -v perf >/dev/null && cc -O1 -g -fno-omit-frame-pointer -o "$work/workload" "$TK_SOURCE_DIR/examples/workload.c" &&
   perf record -q -g -e cpu-clock -c 100000 -o "$work/fresh.data" -- "$work/workload" >/dev/null 2>"$work/rec.err"; then
  check "$work/fresh.data" "fresh perf record -g of workload"
  # a JIT-style symbol whose name tries to end the script and the markup
  evil='evil</script><script>alert`1`</script>&amp;<g>"q'
  if [ "$(uname -m)" = x86_64 ]; then
    cat >"$work/jit.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	/* loop: sub $1,%rdi; jnz loop; ret */
	static const unsigned char code[] = {0x48, 0x83, 0xef, 0x01, 0x75, 0xfa, 0xc3};
	void *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (argc < 2 || m == MAP_FAILED)
		return 1;
	memcpy(m, code, sizeof code);
	char path[64];
	snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
	FILE *f = fopen(path, "w");
	if (!f)
		return 1;
	fprintf(f, "%lx %zx %s\n", (unsigned long)m, sizeof code, argv[1]);
	fclose(f);
	printf("%s\n", path);
	fflush(stdout);
	void (*fn)(unsigned long) = (void (*)(unsigned long))m;
	for (int i = 0; i < 10; i++)
		fn(30000000UL);
	return 0;
}
C
    if cc -O1 -o "$work/jit" "$work/jit.c" &&
       perf record -q -g -e cpu-clock -c 100000 -o "$work/jit.data" -- "$work/jit" "$evil" >"$work/jit.out" 2>"$work/rec.err"; then
      jitmap=$(head -1 "$work/jit.out")
      # folded drops quotes and turns ';' into ':' (stackcollapse-perf's rules)
      must=${evil//\"/}
      check "$work/jit.data" "JIT symbol with markup in its name" "${must//;/:}"
    else
      echo "note: JIT program not recorded: $(head -1 "$work/rec.err")"
    fi
  fi
else
  echo "note: perf cannot record here; fresh recordings not checked"
fi
[ "$checked" -gt 0 ] || { echo "FAIL: nothing checked"; exit 1; }
exit $failed
