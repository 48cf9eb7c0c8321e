#!/usr/bin/env bash
# tracekit record (issue 14): a recording of a fixed-work workload with
# call graphs, `tracekit record -e cpu-clock -c 100000 -g -- workload`, is
# read by perf: `perf script -i` prints exactly what `tracekit print
# --format perf-script` prints of it, the workload's own symbols resolve
# (hash_loop, sort_work: the exec's COMM and MMAP2 are in the file), and
# `perf report --stats` reports no error or lost/unknown records. Also
# `tracekit stats`/`info` read it, and the header carries the features
# (hostname, os release, arch, nrcpus, cmdline, event desc), and build ids
# (perf buildid-list: the workload's equals readelf -n's; the kernel's;
# of the files samples hit only, as perf writes them).
set -u
. "$(dirname "$0")/record_lib.bash"
data="$work/t.data"
if ! "$TK" record -q -e cpu-clock -c 100000 -g -o "$data" -- "$work/workload" 10 >/dev/null 2>"$work/rec.err"; then
  fail "tracekit record failed: $(cat "$work/rec.err")"; exit 1
fi
perf script -i "$data" >"$work/want" 2>"$work/want.err" || fail "perf script exit $?: $(head -2 "$work/want.err")"
"$TK" print --format perf-script "$data" >"$work/got" 2>"$work/got.err" || fail "tracekit print: $(head -2 "$work/got.err")"
n=$(grep -c 'cpu-clock:' "$work/want")
[ "$n" -ge 50 ] || fail "only $n samples in perf script's output"
if cmp -s "$work/want" "$work/got"; then echo "ok   perf script == tracekit print --format perf-script ($n samples)"
else fail "perf script and tracekit print differ:"; diff "$work/want" "$work/got" | head -5; fi
for sym in hash_loop sort_work; do
  grep -q " $sym+0x[0-9a-f]* (.*workload)" "$work/want" || fail "no sample resolved to $sym in the workload"
done
grep -q '^ *workload ' "$work/want" || fail "samples not attributed to comm 'workload' (no COMM exec record)"
perf report --stats -i "$data" >"$work/stats" 2>&1 || fail "perf report --stats exit $?"
if grep -Eiq 'error|warning|LOST|unknown|invalid' "$work/stats"; then fail "perf report --stats:"; grep -Ei 'error|warning|LOST|unknown|invalid' "$work/stats" | head -3
else echo "ok   perf report --stats: no error"; fi
perf report --header-only -i "$data" >"$work/hdr" 2>&1
# perf report shows them as it does for perf record's files; cpudesc as perf's
want_desc=$(perf report --header-only -i "$work/probe2.data" 2>/dev/null | sed -n 's/^# cpudesc : //p')
[ -z "$want_desc" ] || grep -qF "# cpudesc : $want_desc" "$work/hdr" || fail "cpudesc differs from perf's '$want_desc'"
for f in 'hostname :' 'os release :' 'arch :' 'nrcpus online :' 'total memory :' 'cmdline : .*record' 'event : name = cpu-clock'; do
  grep -q "$f" "$work/hdr" || fail "header feature missing: $f"
done
# HEADER_BUILD_ID: perf buildid-list shows the workload with its ELF build id
want_id=$(readelf -n "$work/workload" 2>/dev/null | awk '/Build ID/ {print $3}')
if [ -n "$want_id" ]; then
  got_id=$(perf buildid-list -i "$data" 2>/dev/null | awk -v f="$work/workload" '$2 == f {print $1}')
  [ "$got_id" = "$want_id" ] && echo "ok   build id of the workload: $got_id" || fail "build id of the workload: '$got_id', readelf says $want_id"
fi
perf buildid-list -i "$data" 2>/dev/null | grep -q ' \[kernel.kallsyms\]$' || [ ! -r /sys/kernel/notes ] || fail "no kernel build id"
# ... of hit files only, as perf: each listed file has samples in perf
# report --sort dso (full paths with -v), and tracekit's own binary, mapped
# by the forked child before its exec, is not listed
perf report -v --stdio --no-children -g none --sort dso -i "$data" 2>/dev/null | awk '/%/ {print $2}' | sort -u >"$work/hit.dsos"
perf buildid-list -i "$data" 2>/dev/null | awk '{print $2}' | sort -u >"$work/id.dsos"
extra=$(comm -13 "$work/hit.dsos" "$work/id.dsos" | tr '\n' ' ')
[ -z "$extra" ] && echo "ok   build ids of hit files only ($(wc -l <"$work/id.dsos") files)" || fail "build ids of files without samples: $extra"
tkbin=$(readlink -f "$TK")
! grep -qxF "$tkbin" "$work/id.dsos" || fail "build id of $tkbin, which no sample hit"
"$TK" stats "$data" >/dev/null 2>"$work/tkstats.err" || fail "tracekit stats: $(head -1 "$work/tkstats.err")"
[ $failed -eq 0 ] && echo "record_perfscript: all checks passed"
exit $((failed > 0))
