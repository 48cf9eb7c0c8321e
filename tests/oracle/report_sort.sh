#!/usr/bin/env bash
# report --sort KEY,KEY... (perf's pid, comm, dso, sym in any order),
# --no-children/--children, -g trees under such rows, --per-thread and
# --begin/--end slices (issue 16), against perf report --stdio on
# recordings made here:
# - tests/oracle/report/threads.c (4 threads, frame pointers, -g): every
#   line perf report prints (the column headers, rows, trees) for each
#   sort list, with and without --children, -g none/caller/callee;
# - python3 under --call-graph dwarf: the tables (-g none) for each sort
#   list, exactly, or with the rows of one key tuple summed where perf's
#   hist tree holds one symbol twice (its sort__sym_cmp is not a total
#   order; see oracle/report_children), and the -g caller trees with a
#   sort list that does not start with sym;
# - --per-thread: each thread's table equals `perf report --tid T
#   --percentage relative --sort pid,comm,dso,sym -g caller` (its rows and
#   trees; perf keeps the whole file's "# Samples" line);
# - rows of equal period may come in another order than perf's (see
#   blocks() below): then the rows with their trees must be the same set;
# - branches of equal share whose frames are in different images may come
#   in another order than perf's (see ties_equal() below): then the trees
#   must be the same with those branches put in one order; a symbol perf
#   holds twice in such a tree table (its rows split the symbol's samples
#   in two, as in the -g none tables) has its rows left out there;
# - --begin A --end B equals `perf report --time A,B` (the middle of
#   the recording; perf's header line adds " (time slices: A,B)", which
#   tracekit does not print).
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
# perf report's text less its banner, tips and empty comment lines
# (and the " (time slices: A,B)" that perf adds to its header with --time)
perf_text() { perf report "$@" --stdio 2>/dev/null | grep -v '^# To display\|^# Total Lost\|^# (Tip\|^#$' |
  sed 's/ (time slices: [^)]*)$//; s/ *$//' | grep -v '^$'; }
tk_text() { "$TK" report "$@" 2>"$work/err" | grep -v '^#$' | sed 's/ *$//' | grep -v '^$'; }

# the tables with the rows of one key tuple summed, to 0.02%
summed_equal() { # want got
  /usr/bin/python3 - "$1" "$2" <<'PY'
import re, sys
def load(path):
    rows = {}
    for l in open(path):
        m = re.match(r"^ *([0-9.]+)%(?: +([0-9.]+)%)?  (.*)$", l.rstrip())
        if not m or l.startswith("#") or l.startswith(" " * 12):
            continue
        a, b = float(m.group(1)), float(m.group(2) or 0)
        o = rows.get(m.group(3), (0.0, 0.0))
        rows[m.group(3)] = (o[0] + a, o[1] + b)
    return rows
w, g = load(sys.argv[1]), load(sys.argv[2])
bad = [k for k in set(w) | set(g) if k not in w or k not in g or
       abs(w[k][0] - g[k][0]) > 0.02 or abs(w[k][1] - g[k][1]) > 0.02]
for k in bad[:4]:
    print("  %r: perf %s, tracekit %s" % (k, w.get(k), g.get(k)))
sys.exit(1 if bad or not w else 0)
PY
}

# rows with their trees as sorted blocks: perf orders rows of equal period
# of different threads by its hist rbtree's shape (__hpp__sort_acc compares
# call depths only within one thread, which is no total order)
blocks() { awk '/^ +[0-9.]+%/ {if (b != "") print b; b = $0; next} {b = b "\\n" $0} END {if (b != "") print b}' | LC_ALL=C sort; }

# The image of each symbol and address perf shows, for ties_equal():
# "NAME<TAB>IMAGE" lines from its Children table, where every frame of
# every call chain has a row.
images() { # data
  perf report -i "$1" --children --sort dso,sym -g none --stdio 2>/dev/null |
    sed -n 's/^ *[0-9.]*% *[0-9.]*%  \([^ ]*\)  *\[.\] \(.*\)$/\2\t\1/p'
}

# The trees of want and got equal but for the order of sibling branches of
# one share whose first frames are in different images. perf orders such
# siblings by match_chain_dso_addresses(), which compares its `struct dso *`
# pointers: the order is that of perf's heap (not of the images' mmaps, in
# one recording out of seven python3 ones), which tracekit cannot know.
# Within one image the order (by symbol start, inline name or address)
# must still be perf's: the branches of a run of one share are put in the
# order of their images' names, and stay in their own order within one.
ties_equal() { # images want got
  /usr/bin/python3 - "$@" <<'PY'
import re, sys
ROW = re.compile(r"^ +[0-9.]+%")
BRANCH = re.compile(r"[| ]--([0-9.]+)%--")
image = {}
for l in open(sys.argv[1]):
    name, _, img = l.rstrip("\n").partition("\t")
    if name.startswith("0x"):
        name = hex(int(name, 16))
    image.setdefault(name, set()).add(img)
def image_of(node):
    name = node[1][0] if node[1] else ""
    return "/".join(sorted(image.get(name, ())))
def canon(node):
    # node: (share, [frames of its chain], [children]); runs of children
    # of one share put in the order of their images (stable within one)
    kids, out, run = node[2], [], []
    for k in kids + [None]:
        if run and (k is None or k[0] != run[0][0]):
            out += [canon(x) for x in sorted(run, key=image_of)]
            run = []
        if k is not None:
            run.append(k)
    return "%s[%s]{%s}" % (node[0], "/".join(node[1]), ",".join(out))
def blocks(path):
    # the rows (with their trees, canonical) as sorted blocks, headers apart
    rows, head, stack = [], [], []
    for l in open(path):
        l = l.rstrip("\n")
        if l.startswith("#"):
            head.append(l)
            continue
        if ROW.match(l):
            rows.append([l, ("", [], [])])
            stack = [(-1, rows[-1][1])]
            continue
        t = l.replace("|", " ")
        if not t.strip() or not stack:
            continue
        m = BRANCH.search(l)
        if m:  # a branch starts at its parent's column, its frames 11 to the right
            while len(stack) > 1 and stack[-1][0] > m.start():
                stack.pop()
            node = (m.group(1), [l[m.end():]], [])
            stack[-1][1][2].append(node)
            stack.append((m.start() + 11, node))
        elif t.lstrip().startswith("---") and len(stack) == 1:
            col = len(t) - len(t.lstrip())
            node = ("", [t.strip()[3:]], [])
            stack[0][1][2].append(node)
            stack.append((col + 3, node))
        else:  # the next frame of a chain, in its column
            col = len(t) - len(t.lstrip())
            while len(stack) > 1 and stack[-1][0] > col:
                stack.pop()
            if stack[-1][0] != col:
                sys.exit("cannot read the tree at: " + l)
            stack[-1][1][1].append(t.strip())
    return head, [(r[0], canon(r[1])) for r in rows]
def key(line):
    return re.sub(r"^ *[0-9.]+%(?: +[0-9.]+%)?  ", "", line)
(hw, rw), (hg, rg) = blocks(sys.argv[2]), blocks(sys.argv[3])
# a symbol perf's hist tree holds twice (see the -g none tables): its rows
# split its samples in two trees; they are left out on both sides
keys = [key(r[0]) for r in rw]
twice = sorted({k for k in keys if keys.count(k) > 1})
for k in twice:
    print(" ".join(k.split()))
rows = lambda rs: sorted(a + "\n" + b for a, b in rs if key(a) not in twice)
sys.exit(0 if hw == hg and rows(rw) == rows(rg) else 1)
PY
}

compare() { # label exact|summed perf-args -- tracekit-args
  local label=$1 mode=$2; shift 2
  local pargs=() targs=()
  while [ "$1" != -- ]; do pargs+=("$1"); shift; done
  shift; targs=("$@")
  perf_text "${pargs[@]}" >"$work/want"
  tk_text "${targs[@]}" >"$work/got"
  checked=$((checked+1))
  if [ ! -s "$work/want" ]; then
    fail "$label: perf report printed nothing"
  elif cmp -s "$work/want" "$work/got"; then
    echo "ok   $label: identical to perf report ($(grep -c '%' "$work/want") lines with %)"
  elif [ "$(blocks <"$work/want")" = "$(blocks <"$work/got")" ]; then
    echo "ok   $label: perf report's rows and trees, rows of equal period in another order"
  elif [ "$mode" = summed ] && summed_equal "$work/want" "$work/got" >"$work/why"; then
    echo "ok   $label: perf report's rows, rows of one key summed (perf holds a symbol twice)"
  elif [ "$mode" = exact ] && [ -s "$work/images" ] && ties_equal "$work/images" "$work/want" "$work/got" >"$work/twice"; then
    echo "ok   $label: perf report's rows and trees, branches of equal share from different images in another order"
    [ -s "$work/twice" ] && echo "     rows left out, perf holds them twice (the -g none tables sum them): $(paste -sd';' "$work/twice")"
  else
    fail "$label: differs from perf report ($(head -1 "$work/err")):"
    diff "$work/want" "$work/got" | head -8
    cat "$work/why" 2>/dev/null
  fi
  rm -f "$work/why"
}

lists="comm,dso,sym pid,comm,dso,sym sym,dso,comm dso,sym comm pid,dso"

# threads.c: frame-pointer call chains, four threads
if cc -O1 -g -fno-omit-frame-pointer -pthread -o "$work/threads" "$TK_SOURCE_DIR/tests/oracle/report/threads.c" &&
   perf record -q -g -e cpu-clock:u -F 2000 -o "$work/t.data" -- "$work/threads" 20000000 >/dev/null 2>&1 &&
   [ -s "$work/t.data" ]; then
  t="$work/t.data"
  images "$t" >"$work/images"
  for s in $lists; do
    for c in --children --no-children; do
      graphs="none"
      case $s in comm,dso,sym|sym,dso,comm|pid,dso) graphs="none caller callee" ;; esac
      for g in $graphs; do
        tg=(-g "$g"); [ "$g" = none ] && tg=()
        compare "threads --sort $s $c -g $g" exact -i "$t" $c --sort "$s" -g "$g" -- $c --sort "$s" "${tg[@]}" "$t"
      done
    done
  done
  # per thread: each thread's section
  "$TK" report --per-thread --sort pid,comm,dso,sym -g caller "$t" >"$work/per"
  tids=$(perf script -i "$t" -F tid 2>/dev/null | sort -un)
  [ "$(grep -c '^# Thread: ' "$work/per")" = "$(wc -w <<<"$tids")" ] || fail "per-thread: $(grep -c '^# Thread: ' "$work/per") tables for $(wc -w <<<"$tids") threads"
  for tid in $tids; do
    perf_text -i "$t" --no-children --tid "$tid" --percentage relative --sort pid,comm,dso,sym -g caller | grep -v '^#' >"$work/want"
    awk -v t="$tid" '/^# Thread:/ {on = ($0 ~ "/" t "$")} on' "$work/per" | grep -v '^#' | sed 's/ *$//' | grep -v '^$' >"$work/got"
    checked=$((checked+1))
    if [ -s "$work/want" ] && cmp -s "$work/want" "$work/got"; then
      echo "ok   threads --per-thread: thread $tid equals perf report --tid $tid ($(grep -c '%  ' "$work/want") rows)"
    else
      fail "threads --per-thread: thread $tid differs from perf report --tid $tid:"; diff "$work/want" "$work/got" | head -6
    fi
  done
  # the middle third of the recording
  read -r a b <<<"$(perf script -i "$t" -F time 2>/dev/null | tr -d ' :' | sort -n | awk '{v[NR] = $1} END {printf "%.6f %.6f\n", v[1] + (v[NR] - v[1]) / 3, v[1] + 2 * (v[NR] - v[1]) / 3}')"
  for s in comm,dso,sym pid,sym; do
    compare "threads --sort $s --begin $a --end $b" exact -i "$t" --no-children --time "$a,$b" --sort "$s" -g caller -- \
      --no-children --begin "$a" --end "$b" --sort "$s" -g caller "$t"
  done
else
  echo "note: threads.c could not be built or recorded"
fi

# python3 under --call-graph dwarf
if perf record -q --call-graph dwarf -e cpu-clock:u -F 1000 -o "$work/py.data" -- /usr/bin/python3 -c "
import json
def f(n):
    return sum(i * i for i in range(n))
for _ in range(12):
    f(200000); json.dumps(list(range(30000)))" >/dev/null 2>&1 && [ -s "$work/py.data" ]; then
  p="$work/py.data"
  images "$p" >"$work/images"
  for s in $lists; do
    for c in --children --no-children; do
      compare "python3 --sort $s $c" summed -i "$p" $c --sort "$s" -g none -- $c --sort "$s" "$p"
    done
  done
  for s in comm,dso,sym pid,dso; do
    compare "python3 --sort $s --children -g caller" exact -i "$p" --children --sort "$s" -g caller -- --children --sort "$s" -g caller "$p"
  done
  read -r a b <<<"$(perf script -i "$p" -F time 2>/dev/null | tr -d ' :' | sort -n | awk '{v[NR] = $1} END {printf "%.6f %.6f\n", v[1] + (v[NR] - v[1]) / 3, v[1] + 2 * (v[NR] - v[1]) / 3}')"
  compare "python3 --sort comm,dso,sym --children --begin $a --end $b" summed -i "$p" --children --time "$a,$b" --sort comm,dso,sym -g none -- \
    --children --begin "$a" --end "$b" --sort comm,dso,sym "$p"
else
  echo "note: python3 could not be recorded with --call-graph dwarf"
fi

[ "$checked" -gt 0 ] || { echo "SKIP: nothing could be recorded"; exit 77; }
[ "$failed" -eq 0 ] && echo "all $checked checks equal to perf report"
exit $((failed > 0))
