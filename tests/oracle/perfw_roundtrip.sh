#!/usr/bin/env bash
# Oracle for the perf.data writer: on recordings made here with perf (plain;
# -g; --call-graph dwarf; -z; sched:sched_switch -a; the group
# '{cpu-clock,page-faults}'; pipe mode), `perf script` of tracekit's copy is
# identical to `perf script` of the original, for a native copy, a
# big-endian copy (magic 2ELIFREP), a compressed copy and a pipe-mode copy
# written to stdout. Filtered copies (--pid, --cpu, --time) print what
# `perf script --pid/--cpu/--time` prints of the original.
# Copies go through `tracekit convert IN --to perf -o OUT` ($TK); filtered
# copies through the test program test_perfw_copy (tk_perf_copy_filtered),
# which the CLI does not route perf->perf filters to yet. Skipped (exit 77,
# with the reason) where perf cannot record.
set -u
: "${TK_BUILD_DIR:?}" "${TK_SOURCE_DIR:?}"
if ! command -v perf >/dev/null; then echo "SKIP: perf is not installed"; exit 77; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! perf record -q -o "$work/probe.data" -- true >/dev/null 2>"$work/probe.err"; then
  echo "SKIP: perf cannot record here: $(head -1 "$work/probe.err")"; exit 77
fi
tool="$TK_BUILD_DIR/bin/test_perfw_copy"
if [ ! -x "$tool" ]; then echo "SKIP: $tool is not built"; exit 77; fi
# copy IN OUT [--byte-order B] [--compress]: through the CLI when there is one
copy() {
  if [ -n "${TK:-}" ] && [ -x "$TK" ]; then
    local in=$1 out=$2; shift 2
    "$TK" convert "$in" --to perf -o "$out" "$@" 2>>"$work/copy.log"
  else
    "$tool" copy "$@" 2>>"$work/copy.log"
  fi
}
# fcopy IN OUT [--pid N] [--cpu N] [--begin NS] [--end NS]: tk_perf_copy_filtered
fcopy() { "$tool" copy "$@" 2>>"$work/copy.log"; }

cc -O1 -g -fno-omit-frame-pointer -o "$work/workload" "$TK_SOURCE_DIR/examples/workload.c" 2>/dev/null ||
  cp /bin/true "$work/workload"
run_cmd=(sh -c "for i in 1 2 3; do ls -R /usr/lib >/dev/null 2>&1; done; '$work/workload' >/dev/null 2>&1 || true")
failed=0; checked=0

pscript() { perf script "$@" 2>/dev/null; }

# same NAME WHAT WANT-FILE GOT-FILE
same() {
  checked=$((checked+1))
  if cmp -s "$3" "$4"; then
    echo "ok   $1 $2 ($(wc -l <"$3") lines)"
  else
    echo "FAIL $1 $2: perf script differs"; diff "$3" "$4" | head -5; failed=$((failed+1))
  fi
}

# check NAME PIPE(0|1) PERF-RECORD-ARGS...
check() {
  local name=$1 pipe=$2; shift 2
  local data="$work/$name.data"
  if [ "$pipe" = 1 ]; then
    perf record -q -o - "$@" -- "${run_cmd[@]}" 2>"$work/$name.rec.err" >"$data"
  else
    perf record -q -o "$data" "$@" -- "${run_cmd[@]}" >/dev/null 2>"$work/$name.rec.err"
  fi
  if [ $? -ne 0 ] || [ ! -s "$data" ]; then
    echo "SKIP $name: perf record failed: $(grep -v '^\[' "$work/$name.rec.err" | head -1)"
    return
  fi
  if [ "$pipe" = 1 ]; then pscript -i - <"$data" >"$work/$name.want"; else pscript -i "$data" >"$work/$name.want"; fi
  if [ ! -s "$work/$name.want" ]; then echo "SKIP $name: perf script printed nothing"; return; fi
  local v
  for v in native big compress pipe; do
    local out="$work/$name.$v.data" ok=0
    case $v in
      native)   copy "$data" "$out" && ok=1 ;;
      big)      copy "$data" "$out" --byte-order big && ok=1 ;;
      compress) copy "$data" "$out" --compress && ok=1 ;;
      pipe)     copy "$data" - >"$out" && ok=1 ;;
    esac
    if [ $ok = 0 ]; then echo "FAIL $name $v: copy failed: $(tail -1 "$work/copy.log")"; failed=$((failed+1)); continue; fi
    if [ $v = big ] && [ "$(head -c 8 "$out")" != 2ELIFREP ]; then
      echo "FAIL $name big: magic is not 2ELIFREP"; failed=$((failed+1)); continue
    fi
    if [ $v = pipe ]; then pscript -i - <"$out" >"$work/$name.$v.got"; else pscript -i "$out" >"$work/$name.$v.got"; fi
    same "$name" "$v" "$work/$name.want" "$work/$name.$v.got"
  done
}

check plain 0
check callgraph 0 -g
check dwarf 0 --call-graph dwarf,4096
check zstd 0 -z
check sched_switch 0 -e sched:sched_switch -a
check group 0 -e '{cpu-clock,page-faults}'
check pipe 1

# filters: the filtered copy prints what perf script --pid/--cpu/--time prints
filter() {
  local name=$1 data="$work/$1.data"; shift
  local what=$1 popt=$2 topt=$3
  [ -s "$data" ] || return
  pscript -i "$data" $popt >"$work/$name.f.want"
  if [ ! -s "$work/$name.f.want" ]; then echo "SKIP $name $what: nothing selected"; return; fi
  if ! fcopy "$data" "$work/$name.f.data" $topt; then
    echo "FAIL $name $what: copy failed"; failed=$((failed+1)); return
  fi
  pscript -i "$work/$name.f.data" >"$work/$name.f.got"
  same "$name" "$what" "$work/$name.f.want" "$work/$name.f.got"
}
if [ -s "$work/plain.data" ]; then
  pid=$(perf script -i "$work/plain.data" -F pid 2>/dev/null | sort | uniq -c | sort -rn | awk 'NR==1{print $2}')
  filter plain "--pid $pid" "--pid $pid" "--pid $pid"
  # the middle third of the samples, in perf's seconds and in ns
  mapfile -t ts < <(perf script -i "$work/plain.data" -F time 2>/dev/null | tr -d ' :')
  n=${#ts[@]}
  if [ "$n" -ge 3 ]; then
    a=${ts[$((n/3))]} b=${ts[$((2*n/3))]}
    ns() { local s=${1%.*} f=${1#*.}; f=$(printf '%-9s' "$f" | tr ' ' 0); echo $((10#$s * 1000000000 + 10#$f)); }
    filter plain "--time $a,$b" "--time $a,$b" "--begin $(ns "$a") --end $(ns "$b")"
  fi
fi
if [ -s "$work/sched_switch.data" ]; then
  cpu=$(perf script -i "$work/sched_switch.data" -F cpu 2>/dev/null | tr -d '[]' | sort | uniq -c | sort -rn | awk 'NR==1{print $2+0}')
  filter sched_switch "--cpu $cpu" "--cpu $cpu" "--cpu $cpu"
fi

echo "$checked checks, $failed failed"
[ -s "$work/copy.log" ] && { echo "copy warnings:"; sort "$work/copy.log" | uniq -c | head; }
[ "$failed" -eq 0 ]
