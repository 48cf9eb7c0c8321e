# Sourced by tests/oracle/record_*.sh: skips (exit 77) where perf is missing
# or perf_event_open is not permitted, makes $work, compiles the fixed-work
# workload (examples/workload.c, frame pointers) into $work/workload.
: "${TK:?}" "${TK_SOURCE_DIR:?}"
if ! command -v perf >/dev/null; then echo "SKIP: perf is not installed"; exit 77; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! "$TK" record -q -o "$work/probe.data" -- true >/dev/null 2>"$work/probe.err"; then
  echo "SKIP: tracekit record cannot record here: $(head -1 "$work/probe.err")"; exit 77
fi
if ! perf record -q -o "$work/probe2.data" -- true >/dev/null 2>"$work/probe2.err"; then
  echo "SKIP: perf cannot record here: $(head -1 "$work/probe2.err")"; exit 77
fi
if ! cc -O1 -g -fno-omit-frame-pointer -o "$work/workload" "$TK_SOURCE_DIR/examples/workload.c"; then
  echo "SKIP: no C compiler for the workload"; exit 77
fi
failed=0
fail() { echo "FAIL $*"; failed=$((failed+1)); }
