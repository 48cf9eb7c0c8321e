#!/usr/bin/env bash
# tracekit record (issue 14) against perf record: the same fixed-work
# workload (examples/workload.c, 10 rounds: hash_loop ~70%, sort_work ~25%
# of its own samples) recorded by each with -e cpu-clock -c 100000 -g, and
# `perf report --sort dso,sym --no-children -g none` read of both files.
# The rule, independent of sample counts and timing: (1) the top symbol of
# the workload's own code is the same; (2) the set of its symbols with at
# least 10% of its samples is the same (shares ~70%, ~25%, below 2%).
# Only the workload binary's rows are compared, with percentages relative
# to them: kernel rows (finish_task_switch, page faults) grow with the
# machine's load. And -g none: with call graphs shown, perf prints branch
# lines ("|--1.20%--schedule") under any row above 0.5% whose callers
# differ; the first version of this test read those as rows, their text
# compared as a string passed ">= 10", and a loaded run (more preemptions,
# finish_task_switch above 1%) failed.
set -u
. "$(dirname "$0")/record_lib.bash"
"$TK" record -q -e cpu-clock -c 100000 -g -o "$work/tk.data" -- "$work/workload" 10 >/dev/null 2>"$work/tk.err" ||
  { fail "tracekit record: $(cat "$work/tk.err")"; exit 1; }
perf record -q -e cpu-clock -c 100000 -g -o "$work/perf.data" -- "$work/workload" 10 >/dev/null 2>"$work/perf.err" ||
  { echo "SKIP: perf record failed: $(head -1 "$work/perf.err")"; exit 77; }
# "symbol percent" rows of the workload binary, largest first; only lines
# shaped as a report row (percent, [.], symbol: --dsos drops the dso column)
# count
rows() { perf report --stdio --sort dso,sym --no-children -g none --percentage relative \
    --dsos workload -i "$1" 2>/dev/null |
  awk '/^ +[0-9]+\.[0-9]+% +([^ ]+ +)?\[\.\] / { p=$1; sub(/%/,"",p); print $NF, p+0 }'; }
rows "$work/tk.data" >"$work/tk.rows"; rows "$work/perf.data" >"$work/perf.rows"
top_tk=$(head -1 "$work/tk.rows" | cut -d' ' -f1); top_perf=$(head -1 "$work/perf.rows" | cut -d' ' -f1)
[ -n "$top_tk" ] || fail "perf report shows no symbol for tracekit's recording"
if [ "$top_tk" = "$top_perf" ]; then echo "ok   top symbol $top_tk in both"; else fail "top symbol: tracekit $top_tk, perf $top_perf"; fi
big() { awk '$2 + 0 >= 10 { print $1 }' "$1" | sort; }
if [ "$(big "$work/tk.rows")" = "$(big "$work/perf.rows")" ]; then echo "ok   symbols >= 10%: $(big "$work/tk.rows" | tr '\n' ' ')"
else fail "symbols >= 10% differ: tracekit [$(big "$work/tk.rows" | tr '\n' ' ')] perf [$(big "$work/perf.rows" | tr '\n' ' ')]"; fi
if [ $failed -ne 0 ]; then
  echo "tracekit's rows:"; head -5 "$work/tk.rows"; echo "perf's rows:"; head -5 "$work/perf.rows"
  "$TK" stats "$work/tk.data" | head -20
fi
[ $failed -eq 0 ] && echo "record_topsym: all checks passed"
exit $((failed > 0))
