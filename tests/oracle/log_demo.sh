#!/bin/sh
# examples/log_demo.c runs and its CPEL dump prints with cpeldump's layout:
# 32 events, main thread's first and last, 15 per worker track in the order
# each worker logged them. Then the example as `tracekit view` shows it:
# the page's metadata (the tk-meta JSON) has a track per logger track with
# the events print shows on it, and the event names print shows.
set -u
: "${TK:?}" "${TK_BUILD_DIR:?}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "log_demo: FAIL: $*"; exit 1; }
"$TK_BUILD_DIR/bin/log_demo" "$tmp/demo.cpel" >/dev/null || fail "log_demo"
"$TK" print --format cpeldump "$tmp/demo.cpel" >"$tmp/out" || fail "print"
[ "$(wc -l <"$tmp/out")" -eq 32 ] || fail "not 32 events"
head -1 "$tmp/out" | grep -q '^000:00:00:000:000 main thread link-state up$' || fail "first: $(head -1 "$tmp/out")"
tail -1 "$tmp/out" | grep -q ' main thread link-state down$' || fail "last: $(tail -1 "$tmp/out")"
for w in 1 2; do
	grep " worker $w " "$tmp/out" | sed 's/^[0-9:]* worker [12] *//' >"$tmp/w$w"
	i=0
	while [ $i -lt 5 ]; do
		printf 'rx-burst:  queue %d pkts %d\nbytes:     total %d delta %d\nload:      %s of cpu budget\n' \
			$w $((32 + i)) $(( (32 * (i + 1) + i * (i + 1) / 2) * 1500 )) $((i - 2)) \
			"$(echo "$i" | awk '{ printf "%.3f", 0.25 * $1 }')"
		i=$((i + 1))
	done >"$tmp/want$w"
	diff -u "$tmp/want$w" "$tmp/w$w" || fail "worker $w events"
done
"$TK" view -q "$tmp/demo.cpel" -o "$tmp/demo.html" || fail "view"
grep -q 'id="tk-meta"' "$tmp/demo.html" || fail "view: no tk-meta in the page"
if [ -x /usr/bin/python3 ]; then
	/usr/bin/python3 - "$tmp/demo.html" "$tmp/out" <<'PY' || fail "view: the page does not show the logger's tracks"
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'<script type="application/json" id="tk-meta">(.*?)</script>', page, re.S)
meta = json.loads(m.group(1))
tracks = {t["name"]: t["n"] for t in meta["tracks"] if t["kind"] == "events"}
lines = open(sys.argv[2], encoding="utf-8").read().splitlines()
seen = {}
for line in lines:  # "TIME TRACK EVENT DATUM": the track whose name follows the time
    rest = line.split(" ", 1)[1]
    names = [n for n in tracks if rest.startswith(n + " ")]
    if len(names) != 1:
        sys.exit(f"no single page track for: {line}")
    seen[names[0]] = seen.get(names[0], 0) + 1
    event = rest[len(names[0]) + 1:].split()[0]
    if event not in meta["strings"]:
        sys.exit(f"event name {event} not in the page")
if meta["nEvents"] != len(lines) or seen != tracks:
    sys.exit(f"page: {meta['nEvents']} events, tracks {tracks}; print: {len(lines)}, {seen}")
PY
else # no python: the track names at least
	for t in "main thread" "worker 1" "worker 2"; do
		grep -q "\"name\":\"$t\"" "$tmp/demo.html" || fail "view: no track $t"
	done
fi
echo "log_demo: ok"
