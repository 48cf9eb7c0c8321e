#!/bin/sh
# examples/log_demo.c runs and its CPEL dump prints with cpeldump's layout:
# 32 events, main thread's first and last, 15 per worker track in the order
# each worker logged them.
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
echo "log_demo: ok"
