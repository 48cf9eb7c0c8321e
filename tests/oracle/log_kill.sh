#!/bin/sh
# A process SIGKILLed while two of its threads log into a mapped log file
# (tk_log_open_file, stop-when-full, 65536 events per ring) leaves a file
# that tracekit reads directly. The child tells the parent through a pipe
# once both threads logged N events and goes on logging; the parent kills
# it then (tests/log/log_writer.c). Whenever the kill lands, each thread's
# events in the file must be a prefix of what it logged: seq 0, 1, 2, ...
# with no gap, at least N of them, at most the ring's 65536, and nothing
# else. The file also converts to CPEL and CTF (babeltrace2 reads it).
set -u
: "${TK:?}" "${TK_BUILD_DIR:?}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "log_kill: FAIL: $*"; exit 1; }
n=20000
"$TK_BUILD_DIR/bin/log_writer" kill "$tmp/k.tklog" $n >"$tmp/w.out" || fail "log_writer kill"
"$TK" info "$tmp/k.tklog" >"$tmp/info" || fail "info"
grep -q '^rings: 2 ' "$tmp/info" || fail "info: not 2 rings: $(cat "$tmp/info")"
"$TK" print --format elog "$tmp/k.tklog" >"$tmp/p" || fail "print"
# every line "TIME: thread TID: seq S of thread T"
awk -v n=$n '
	!/^ *[0-9]+\.[0-9]+: thread [0-9]+: seq [0-9]+ of thread [01]$/ { print "bad line " NR ": " $0; bad = 1; exit 1 }
	{ t = $NF; s = $(NF - 3); if (s != next_seq[t] + 0) { print "thread " t ": seq " s " where " next_seq[t] + 0 " was due"; bad = 1; exit 1 }
	  next_seq[t] = s + 1 }
	END { if (bad) exit 1
	      for (t = 0; t < 2; t++) { k = next_seq[t] + 0
		if (k < n || k > 65536) { print "thread " t ": " k " events"; exit 1 }
		printf "thread %d: prefix of %d events\n", t, k } }' "$tmp/p" >"$tmp/check" || fail "$(cat "$tmp/check")"
"$TK" convert "$tmp/k.tklog" -o "$tmp/k.cpel" || fail "convert to CPEL"
lines=$(wc -l <"$tmp/p")
[ "$("$TK" print --format cpeldump "$tmp/k.cpel" | wc -l)" -eq "$lines" ] || fail "CPEL holds another count"
"$TK" convert "$tmp/k.tklog" -o "$tmp/k.ctf" --to ctf || fail "convert to CTF"
if command -v babeltrace2 >/dev/null 2>&1; then
	[ "$(babeltrace2 "$tmp/k.ctf" | wc -l)" -eq "$lines" ] || fail "babeltrace2 reads another count"
fi
echo "log_kill: ok: $(tr '\n' ';' <"$tmp/check")"
