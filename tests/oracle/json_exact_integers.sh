#!/usr/bin/env bash
# JSON output keeps every integer exact for readers that hold numbers in
# doubles (JavaScript, jq, Perfetto): no JSON number beyond 2^53 in JSON
# lines (print --format json, convert -o x.jsonl), Chrome JSON (convert
# --to chrome) or the generic JSON of CTF; such values are strings, and
# addresses are "0x..." strings. The values themselves are checked against
# the oracles: epoch-ns sample times and IPs against `perf script --ns` of a
# CLOCK_REALTIME recording, CTF event times against `babeltrace2
# --clock-seconds`. Parsed with Python's json module (/usr/bin/python3).
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}"
py=/usr/bin/python3
[ -x "$py" ] || { echo "SKIP: no $py"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0; checked=0

cat >"$work/check.py" <<'EOF'
# check.py KIND FILE [WANT]: KIND lines (JSON lines) or doc (one document).
# Fails when a JSON number is an integer beyond 2^53 in magnitude; with
# WANT (lines "time ip" or "time"), the events' time (and ip) must equal
# it, in order.
import json, sys
kind, path = sys.argv[1], sys.argv[2]
want = [l.split() for l in open(sys.argv[3])] if len(sys.argv) > 3 else None
LIMIT = 2 ** 53
bad = []
def walk(v, where):
    if isinstance(v, bool) or v is None:
        return
    if isinstance(v, int) and abs(v) > LIMIT:
        bad.append("%s = %d" % (where, v))
    elif isinstance(v, dict):
        for k, x in v.items():
            walk(x, where + "." + k)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            walk(x, "%s[%d]" % (where, i))
def as_int(v, base=10):
    return v if isinstance(v, int) else int(v, 0 if base == 16 else 10)
if kind == "lines":
    events = [json.loads(l) for l in open(path)]
else:
    events = json.load(open(path))["traceEvents"]
for i, e in enumerate(events):
    walk(e, "event %d" % i)
if bad:
    sys.exit("integers beyond 2^53 written as numbers: " + "; ".join(bad[:3]))
if want is not None:
    got = []
    for e in events:
        if kind == "doc":
            if e.get("ph") != "i":
                continue
            ip = e["args"].get("perf_ip")
            got.append([None, hex(as_int(ip, 16)) if ip is not None else None])
        else:
            ip = e.get("ip")
            got.append([str(as_int(e["time"])), hex(as_int(ip, 16)) if ip is not None else None])
    if len(got) != len(want):
        sys.exit("%d events, the oracle has %d" % (len(got), len(want)))
    for i, (g, w) in enumerate(zip(got, want)):
        if g[0] is not None and g[0] != w[0]:
            sys.exit("event %d: time %s, the oracle says %s" % (i, g[0], w[0]))
        if len(w) > 1 and g[1] != w[1]:
            sys.exit("event %d: ip %s, the oracle says %s" % (i, g[1], w[1]))
print("%d events" % len(events))
EOF

# check NAME KIND FILE [WANT]
check() {
  local name=$1; shift
  checked=$((checked+1))
  if out=$("$py" "$work/check.py" "$@" 2>&1); then
    echo "ok $name: $out"
  else
    echo "FAIL $name: $out"; failed=$((failed+1))
  fi
}

# perf: a CLOCK_REALTIME recording (epoch-ns times are beyond 2^53), kernel
# and user IPs
if command -v perf >/dev/null && cc -O1 -g -o "$work/workload" "$TK_SOURCE_DIR/examples/workload.c" &&
   perf record -q -k CLOCK_REALTIME -e cpu-clock -c 200000 -o "$work/rt.data" -- "$work/workload" \
     >/dev/null 2>"$work/rec.err" && [ -s "$work/rt.data" ]; then
  # perf script: "1795678241.196380366:  ffffffff815e4505" -> "ns 0x..."
  perf script -i "$work/rt.data" -F time,ip --ns 2>/dev/null |
    awk '{ t = $1; sub(/:$/, "", t); split(t, a, "."); printf "%s%s 0x%s\n", a[1], a[2], $2 }' |
    sed 's/^0*//; s/ 0x0*/ 0x/; s/ 0x$/ 0x0/' >"$work/rt.want"
  "$TK" print --format json "$work/rt.data" >"$work/rt.jsonl" 2>"$work/err" &&
    check "perf print --format json" lines "$work/rt.jsonl" "$work/rt.want" ||
    { echo "FAIL perf print: $(head -2 "$work/err")"; failed=$((failed+1)); }
  "$TK" convert "$work/rt.data" --to chrome -o "$work/rt.chrome.json" 2>"$work/err" &&
    check "perf -> chrome" doc "$work/rt.chrome.json" "$work/rt.want" ||
    { echo "FAIL perf -> chrome: $(head -2 "$work/err")"; failed=$((failed+1)); }
  "$TK" convert "$work/rt.data" -o "$work/rt.conv.jsonl" 2>"$work/err" &&
    check "perf -> json lines" lines "$work/rt.conv.jsonl" ||
    { echo "FAIL perf -> json lines: $(head -2 "$work/err")"; failed=$((failed+1)); }
else
  echo "SKIP perf: cannot record here"
fi

# CTF: LTTng traces whose clock has an epoch offset
if [ -n "${TK_TESTDATA:-}" ]; then
  for t in wk-heartbeat-u lttng-tracefile-rotation/kernel; do
    d="$TK_TESTDATA/ctf/babeltrace/succeed/$t"
    [ -d "$d" ] || continue
    "$TK" print --format json "$d" >"$work/ctf.jsonl" 2>"$work/err" ||
      { echo "FAIL ctf $t: $(head -2 "$work/err")"; failed=$((failed+1)); continue; }
    if command -v babeltrace2 >/dev/null; then
      # "[1351532897.586558519] (+?.?????????) ..." -> ns
      babeltrace2 --clock-seconds "$d" 2>/dev/null |
        sed -n 's/^\[\([0-9]*\)\.\([0-9]*\)\].*/\1\2/p' >"$work/ctf.want"
      check "ctf $t print --format json" lines "$work/ctf.jsonl" "$work/ctf.want"
    else
      check "ctf $t print --format json" lines "$work/ctf.jsonl"
    fi
    "$TK" convert "$d" --to chrome -o "$work/ctf.chrome.json" 2>"$work/err" &&
      check "ctf $t -> chrome" doc "$work/ctf.chrome.json" ||
      { echo "FAIL ctf $t -> chrome: $(head -2 "$work/err")"; failed=$((failed+1)); }
  done
fi
[ "$checked" -gt 0 ] || { echo "SKIP: nothing checked"; exit 77; }
[ "$failed" -eq 0 ] || exit 1
