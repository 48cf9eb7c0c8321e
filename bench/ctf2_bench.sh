#!/bin/sh
# CTF 2 vs CTF 1.8 decode speed on the same data: a 1.5 M-event trace
# (babeltrace2's own CTF 1.8 from generated dmesg text, as ctf_bench.sh makes
# it) is converted by tracekit twice, --to ctf and --to ctf2: the data stream
# files of the two come out identical but for the trace UUID in each packet
# header (checked), only the metadata differs (TSDL vs JSON fragments). Then, alternating, best CPU time
# (user + sys) of ROUNDS runs each:
#   decode: `tracekit stats TRACE`
#   print:  `tracekit print --format babeltrace TRACE >/dev/null` (outputs compared)
# usage: bench/ctf2_bench.sh [WORKDIR [ROUNDS]]   (env TK = tracekit binary)
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
TK=${TK:-$here/build/bin/tracekit}
work=${1:-/tmp/tk-ctf2-bench}
rounds=${2:-9}
mkdir -p "$work" || exit 1
export TZ=UTC LC_ALL=C
for tool in babeltrace2 python3; do
	command -v "$tool" >/dev/null 2>&1 || { echo "needs $tool"; exit 1; }
done
[ -x "$TK" ] || { echo "no tracekit binary at $TK (set TK)"; exit 1; }

if [ ! -f "$work/dmesg-ctf/dmesg.txt/metadata" ]; then
	python3 - "$work/dmesg.txt" <<'PY'
import random, sys
r = random.Random(1)
words = 'usb device new high-speed number using ehci_hcd ACPI PCI interrupt link enabled IRQ eth0 link up 1000Mbps full duplex'.split()
with open(sys.argv[1], 'w') as f:
    t = 0.0
    for i in range(1500000):
        t += r.random() * 0.001
        f.write('[%12.6f] %s\n' % (t, ' '.join(r.choice(words) for _ in range(r.randint(3, 9)))))
PY
	babeltrace2 run --component=src:src.text.dmesg --params="path=\"$work/dmesg.txt\"" \
		--component=sink:sink.ctf.fs --params="path=\"$work/dmesg-ctf\"" --connect=src:sink >/dev/null ||
		exit 1
fi
rm -rf "$work/c18" "$work/c2"
"$TK" convert "$work/dmesg-ctf" -o "$work/c18" --to ctf || exit 1
"$TK" convert "$work/dmesg-ctf" -o "$work/c2" --to ctf2 || exit 1
# Each conversion draws its own trace UUID, written in every packet header:
# the data streams must differ in those 16 bytes per packet and nowhere else.
for f in "$work/c18"/*; do
	b=$(basename "$f")
	{ [ "$b" = metadata ] || [ -d "$f" ]; } && continue
	npk=$("$TK" info "$work/c18" | sed -n "s|.*/$b (.* \([0-9]*\) packets)|\1|p")
	nd=$(cmp -l "$f" "$work/c2/$b" 2>/dev/null | wc -l)
	[ -n "$npk" ] && [ "$(wc -c <"$f")" = "$(wc -c <"$work/c2/$b")" ] && [ "$nd" -le $((16 * npk)) ] ||
		{ echo "data stream $b differs beyond its packet UUIDs ($nd bytes, $npk packets)"; exit 1; }
done
# user + sys of the command alone, to the microsecond (GNU time's 10 ms
# steps are 15 % of a 0.06 s run)
cpu() {
	python3 - "$@" <<'PY'
import os, sys
pid = os.fork()
if pid == 0:
    fd = os.open(os.devnull, os.O_WRONLY)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    try:
        os.execvp(sys.argv[1], sys.argv[1:])
    finally:
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
print("%.6f" % (ru.ru_utime + ru.ru_stime))
PY
}
best() { awk 'NR == 1 || $1 < m { m = $1 } END { print m }'; }
: >"$work/s18"; : >"$work/s2"; : >"$work/p18"; : >"$work/p2"
i=0
while [ $i -lt "$rounds" ]; do
	cpu "$TK" stats "$work/c18" >>"$work/s18"
	cpu "$TK" stats "$work/c2" >>"$work/s2"
	cpu "$TK" print --format babeltrace "$work/c18" >>"$work/p18"
	cpu "$TK" print --format babeltrace "$work/c2" >>"$work/p2"
	i=$((i + 1))
done
"$TK" print --format babeltrace "$work/c18" >"$work/o18"
"$TK" print --format babeltrace "$work/c2" >"$work/o2"
cmp -s "$work/o18" "$work/o2" || { echo "the two print differently"; exit 1; }
n=$(wc -l <"$work/o2")
s18=$(best <"$work/s18"); s2=$(best <"$work/s2"); p18=$(best <"$work/p18"); p2=$(best <"$work/p2")
echo "trace: $n events, data streams identical but for packet UUIDs, metadata $(wc -c <"$work/c18/metadata") B TSDL / $(wc -c <"$work/c2/metadata") B JSON"
echo "stats (decode), best CPU of $rounds: CTF 1.8 ${s18} s, CTF 2 ${s2} s, CTF 2 / CTF 1.8 = $(awk -v a="$s2" -v b="$s18" 'BEGIN { printf "%.3f", a / b }')"
echo "print babeltrace, best CPU of $rounds: CTF 1.8 ${p18} s, CTF 2 ${p2} s, CTF 2 / CTF 1.8 = $(awk -v a="$p2" -v b="$p18" 'BEGIN { printf "%.3f", a / b }')"
