#!/usr/bin/env bash
# tracekit diff on perf report's rows (issue 16), on two recordings made
# here of tests/oracle/report/threads.c (frame pointers, -g, with other
# work sizes so the shares move) and of python3 (--call-graph dwarf):
# - --no-children [--sort KEYS]: exactly what `perf diff [--sort KEYS]`
#   prints (Baseline and Delta Abs columns, rows by |delta|, rows only in
#   the baseline last, symbol-less rows collapsed as perf diff does);
# - --children: per row, Children and Self of A as `perf report --children
#   --sort KEYS -g none` prints them for A, and B - A as the deltas (to
#   0.02%: both sides round to 0.01%), rows with a delta ordered by
#   |Children delta|; rows without a symbol compared summed per key (to
#   0.006% per summed row of perf's).
# Skipped (77) where perf cannot record.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}"
if ! command -v perf >/dev/null; then echo "SKIP: perf is not installed"; exit 77; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! perf record -q -o "$work/probe.data" -- true >/dev/null 2>"$work/probe.err"; then
  echo "SKIP: perf cannot record here: $(head -1 "$work/probe.err")"; exit 77
fi
failed=0; checked=0
fail() { echo "FAIL $*"; failed=$((failed+1)); }

# With sym but not dso among the keys, perf diff merges the rows without a
# symbol of every image into one and shows it with the address of the first
# of them in its input rb-tree, whose comparator (sort__sym_cmp: images by
# name, except two symbol-less entries by address) is no order when several
# images have such rows: which one comes first depends on the tree's shape.
# tracekit shows the lowest; exact_anyaddr compares that row's address out
# (the default keys, dso,sym, compare it exactly).
mask=""
exact_anyaddr() { mask='s/\[\.\] 0x[0-9a-f]\{16\}$/[.] 0x(no symbol)/'; exact "$@"; mask=""; }
exact() { # label a b [--sort KEYS]
  local label=$1 a=$2 b=$3; shift 3
  perf diff "$@" "$a" "$b" 2>/dev/null | grep -v '^#$' | sed 's/ *$//' | sed "${mask:-b}" >"$work/want"
  "$TK" diff --no-children "$@" "$a" "$b" 2>"$work/err" | grep -v '^#$' | sed 's/ *$//' | sed "${mask:-b}" >"$work/got"
  checked=$((checked+1))
  if [ -s "$work/want" ] && cmp -s "$work/want" "$work/got"; then
    echo "ok   $label ${*:-}: identical to perf diff ($(grep -c '%' "$work/want") rows)"
  else
    fail "$label ${*:-}: differs from perf diff ($(head -1 "$work/err")):"; diff -U3 "$work/want" "$work/got" | head -24
  fi
}

children() { # label a b keys
  local label=$1 a=$2 b=$3 keys=$4
  perf report -i "$a" --children --stdio --sort "$keys" -g none 2>/dev/null >"$work/ra"
  perf report -i "$b" --children --stdio --sort "$keys" -g none 2>/dev/null >"$work/rb"
  "$TK" diff --children --sort "$keys" "$a" "$b" 2>"$work/err" >"$work/got"
  checked=$((checked+1))
  if /usr/bin/python3 - "$work/ra" "$work/rb" "$work/got" <<'PY'; then
import re, sys
def key_of(text):
    # rows without a symbol: one per other key (perf diff collapses them);
    # address 0 prints without its 0x (printf's %#x), as sixteen zeros
    return re.sub(r"\[([.k])\] (0x[0-9a-f]+|0{16})\b", r"[\1] ?",
                  re.sub(r" {2,}", "  ", text.strip()))
def report(path):
    rows = {}
    for l in open(path):
        m = re.match(r"^ *([0-9.]+)% +([0-9.]+)%  (.*)$", l.rstrip())
        if m and not l.startswith("#"):
            k = key_of(m.group(3))
            c, s, n = rows.get(k, (0.0, 0.0, 0))
            rows[k] = (c + float(m.group(1)), s + float(m.group(2)), n + 1)
    return rows
A, B = report(sys.argv[1]), report(sys.argv[2])
# tracekit's rows summed per key too, as what each file holds: a row's B
# share is its baseline plus its delta, none where it has no delta (a
# row only in A); perf's hist tree may split one symbol in two rows, and
# tracekit's then pair with B's one by one
got, order, bad = {}, [], []
for l in open(sys.argv[3]):
    if l.startswith("#") or not l.strip():
        continue
    f = l.rstrip("\n")
    cols = [f[0:10], f[12:21], f[23:31], f[33:42]]
    k = key_of(f[44:])
    v = [float(c.strip().rstrip("%")) if c.strip() else None for c in cols]
    ca, sa = v[0] or 0.0, v[2] or 0.0
    cb = ca + v[1] if v[1] is not None else 0.0
    sb = sa + v[3] if v[3] is not None else 0.0
    o = got.get(k, [0.0, 0.0, 0.0, 0.0, 0, False, False])
    got[k] = [o[0] + ca, o[1] + cb, o[2] + sa, o[3] + sb, o[4] + 1,
              o[5] or v[0] is not None, o[6] or v[1] is not None]
    order.append(v[1])
for k in set(A) | set(B):
    a, b = A.get(k), B.get(k)
    g = got.get(k)
    if g is None:
        bad.append((k, "missing")); continue
    # each summed row of perf's and of tracekit's rounds by up to 0.005%
    ta = 0.006 * (a[2] if a else 0) + 0.006 * g[4] + 0.006
    tb = ta + 0.006 * (b[2] if b else 0) + 0.006 * g[4]
    if a and (not g[5] or abs(g[0] - a[0]) > ta or abs(g[2] - a[1]) > ta):
        bad.append((k, "baseline", g, a))
    if b and (not g[6] or abs(g[1] - g[0] - (b[0] - (a[0] if a else 0))) > tb or
              abs(g[3] - g[2] - (b[1] - (a[1] if a else 0))) > tb):
        bad.append((k, "delta", g, a, b))
    if a and not b and g[6]:
        bad.append((k, "delta of a row only in A", g))
extra = set(got) - set(A) - set(B)
deltas = [abs(d) for d in order if d is not None]
if any(x < y - 0.011 for x, y in zip(deltas, deltas[1:])):
    bad.append(("order", "rows not by |Children delta|"))
for x in (bad + [(k, "not in either report") for k in extra])[:5]:
    print("  ", x)
sys.exit(1 if bad or extra or not got else 0)
PY
    echo "ok   $label --children --sort $keys: perf report's Children/Self of A and B - A ($(grep -vc '^#' "$work/got") rows)"
  else
    fail "$label --children --sort $keys: differs from the two perf reports ($(head -1 "$work/err"))"
  fi
}

if cc -O1 -g -fno-omit-frame-pointer -pthread -o "$work/threads" "$TK_SOURCE_DIR/tests/oracle/report/threads.c" &&
   perf record -q -g -e cpu-clock:u -F 2000 -o "$work/t1.data" -- "$work/threads" 20000000 >/dev/null 2>&1 &&
   perf record -q -g -e cpu-clock:u -F 2000 -o "$work/t2.data" -- "$work/threads" 12000000 >/dev/null 2>&1; then
  exact threads "$work/t1.data" "$work/t2.data"
  for s in sym comm,dso,sym pid,sym; do exact threads "$work/t1.data" "$work/t2.data" --sort "$s"; done
  for s in sym comm,dso,sym; do children threads "$work/t1.data" "$work/t2.data" "$s"; done
else
  echo "note: threads.c could not be built or recorded"
fi

pyrec() { # out n
  perf record -q --call-graph dwarf -e cpu-clock:u -F 1000 -o "$1" -- /usr/bin/python3 -c "
import json
def f(n):
    return sum(i * i for i in range(n))
for _ in range($2):
    f(200000); json.dumps(list(range(30000)))" >/dev/null 2>&1 && [ -s "$1" ]
}
if pyrec "$work/p1.data" 8 && pyrec "$work/p2.data" 12; then
  exact python3 "$work/p1.data" "$work/p2.data"
  exact_anyaddr python3 "$work/p1.data" "$work/p2.data" --sort sym
  exact python3 "$work/p1.data" "$work/p2.data" --sort dso
  exact_anyaddr "threads vs python3" "$work/t1.data" "$work/p1.data" --sort sym
  children python3 "$work/p1.data" "$work/p2.data" dso,sym
else
  echo "note: python3 could not be recorded with --call-graph dwarf"
fi

[ "$checked" -gt 0 ] || { echo "SKIP: nothing could be recorded"; exit 77; }
[ "$failed" -eq 0 ] && echo "all $checked checks equal to perf diff / perf report"
exit $((failed > 0))
