#!/usr/bin/env bash
# tracekit record --profile-db (issue 14, dcpid's job): system-wide samples
# folded into a DCPI profile database DIR/EPOCH/HOST/ per (image, event).
# - Counts per image against a parallel perf.data recording of the same
#   run: `perf record -a -e cpu-clock -c 100000` wraps `tracekit record
#   --profile-db DB -a -e cpu-clock -c 100000 -- workload 10`, so both
#   sample the same CPUs at the same period while the workload runs; the
#   workload binary's count in DB equals the one in `tracekit convert
#   perf.data --to dcpi` within 5% + 5 samples (the two timers' phases;
#   other images are not compared: perf's window also holds tracekit's
#   own start and end).
# - Epochs rotate: --epoch 1s over `sleep 2.5` gives at least 2 epoch
#   directories (a boundary is taken on the first wake-up after it, before
#   the workload's exit is looked at); the database's counts add up to the
#   samples the recorder reports; no epoch file is left behind; tracekit
#   report reads the database and diff compares two epochs.
# - SIGKILL of the recorder: the epoch's fold child still ends cleanly.
set -u
. "$(dirname "$0")/record_lib.bash"
count() { # DB IMAGE-PATH: the image's samples over every epoch
  "$TK" stats "$1" 2>/dev/null | awk -v p="$2" '$NF == p { n += $1 } END { print n + 0 }'; }
perf record -q -a -e cpu-clock -c 100000 -o "$work/p.data" -- \
  "$TK" record -q --profile-db "$work/db" -a -e cpu-clock -c 100000 -- "$work/workload" 10 >/dev/null 2>"$work/rec.err" ||
  fail "record --profile-db (under perf record): $(head -2 "$work/rec.err")"
"$TK" convert "$work/p.data" --to dcpi -o "$work/pdb" 2>"$work/conv.err" || fail "convert --to dcpi: $(head -2 "$work/conv.err")"
got=$(count "$work/db" "$work/workload"); want=$(count "$work/pdb" "$work/workload")
[ "$want" -ge 100 ] || fail "perf's recording has only $want samples of the workload"
d=$((got > want ? got - want : want - got))
if [ $((d * 100)) -le $((want * 5 + 500)) ]; then echo "ok   workload image: $got samples in the database, $want in perf's (convert --to dcpi)"
else fail "workload image: $got samples in the database, $want in perf's"; fi
"$TK" stats "$work/db" 2>/dev/null | grep -q '\[kernel.kallsyms\]' || fail "no kernel profile in the database"
# epochs
"$TK" record --profile-db "$work/db2" --epoch 1s -e cpu-clock -c 1000000 -a -- sleep 2.5 >/dev/null 2>"$work/rec2.err" ||
  fail "record --epoch 1s: $(head -2 "$work/rec2.err")"
said=$(sed -nE 's/.*\(([0-9]+) samples\).*/\1/p' "$work/rec2.err")
epochs=$(find "$work/db2" -mindepth 1 -maxdepth 1 -type d | sort)
n_epochs=$(echo "$epochs" | grep -c .)
[ "$n_epochs" -ge 2 ] && echo "ok   $n_epochs epochs" || fail "$n_epochs epoch directories after 2.5 s with --epoch 1s"
total=$("$TK" stats "$work/db2" 2>/dev/null | awk 'NR > 1 { n += $1 } END { print n + 0 }')
[ -n "$said" ] && [ "$total" -eq "$said" ] && echo "ok   the database holds the $said samples recorded" || fail "database total $total, recorder said '$said'"
[ -z "$(find "$work/db2" -name '.*' -type f)" ] || fail "temporary files left in the database"
"$TK" report "$work/db2" >/dev/null 2>"$work/rep.err" || fail "tracekit report of the database: $(head -2 "$work/rep.err")"
e1=$(echo "$epochs" | sed -n 1p); e2=$(echo "$epochs" | sed -n 2p)
"$TK" diff "$e1" "$e2" >"$work/diff" 2>"$work/diff.err" && grep -q '^# event cpu-clock' "$work/diff" || fail "tracekit diff of two epochs: $(head -2 "$work/diff.err")"
# a crash (SIGKILL, by its own workload): the epoch's fold child sees its
# pipe end, writes what reached it and exits; nothing half-written stays
"$TK" record -q --profile-db "$work/db3" -e cpu-clock -c 100000 -a -- sh -c 'kill -KILL $PPID' >/dev/null 2>&1
for i in $(seq 1 100); do pgrep -f -- "--profile-db $work/db3" >/dev/null || break; sleep 0.1; done
if pgrep -f -- "--profile-db $work/db3" >/dev/null; then fail "after SIGKILL the epoch's fold did not end"
elif [ -n "$(find "$work/db3" -name '.*' -type f)" ]; then fail "after SIGKILL: temporary files left: $(find "$work/db3" -name '.*' -type f)"
elif [ -n "$(find "$work/db3" -name '*.prof')" ] && ! "$TK" stats "$work/db3" >/dev/null 2>&1; then fail "after SIGKILL: the database does not read"
else echo "ok   after SIGKILL the epoch's fold ended cleanly ($(find "$work/db3" -name '*.prof' | wc -l) profiles)"; fi
"$TK" record --epoch 1s -a -- true >/dev/null 2>&1; [ $? -eq 2 ] || fail "--epoch without --profile-db: want exit 2"
[ $failed -eq 0 ] && echo "record_profile_db: all checks passed"
exit $((failed > 0))
