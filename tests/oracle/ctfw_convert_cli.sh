#!/usr/bin/env bash
# Oracle for `tracekit convert ... --to ctf` (the CTF writer through the CLI):
# - CTF -> CTF: babeltrace2 of the converted trace equals the expected .pretty
#   of the original for a few reference traces;
# - perf -> CTF: babeltrace2 of our trace equals babeltrace2 of the trace made
#   by `perf data convert --to-ctf` (plain and -g recordings, a tracepoint
#   recording, and each of them with --all, which the CLI must pass on);
# - --ctf-packetized-metadata and --packet-size are honoured;
# - a conversion killed with SIGKILL leaves nothing at OUT, or a complete OUT.
# Skipped (exit 77, with the reason) when babeltrace2 is missing or the CLI
# does not route --to ctf to the writer yet.
set -u
: "${TK:?}" "${TK_TESTDATA:?}"
export TZ=UTC LC_ALL=C
if ! command -v babeltrace2 >/dev/null; then echo "SKIP: babeltrace2 is not installed"; exit 77; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ctf=$TK_TESTDATA/ctf

if ! "$TK" convert "$ctf/babeltrace/succeed/succeed1" -o "$work/probe" --to ctf >/dev/null 2>"$work/probe.err"; then
  if grep -qi "not supported\|unsupported\|no writer for format" "$work/probe.err"; then
    echo "SKIP: tracekit convert --to ctf is not wired yet: $(head -1 "$work/probe.err")"; exit 77
  fi
  echo "FAIL probe: $(head -3 "$work/probe.err")"; exit 1
fi
failed=0; checked=0

# same NAME GOT-FILE WANT-FILE
same() {
  checked=$((checked+1))
  if cmp -s "$2" "$3"; then echo "ok   $1"; else
    echo "FAIL $1"; diff "$2" "$3" | head -4 | cut -c1-300; failed=$((failed+1)); fi
}

for t in babeltrace/succeed/wk-heartbeat-u babeltrace/succeed/sequence babeltrace/succeed/meta-variant-two-underscores \
         barectf/basic_dynamic-array_of-uint3 barectf/basic_byte-order_trace-byte-order-big-endian; do
  name=${t//\//_}
  if ! "$TK" convert "$ctf/$t" -o "$work/$name" --to ctf 2>"$work/$name.err"; then
    echo "FAIL $t: $(head -2 "$work/$name.err")"; failed=$((failed+1)); continue
  fi
  babeltrace2 "$work/$name" >"$work/$name.got" 2>/dev/null
  same "$t" "$work/$name.got" "$ctf/expected/$name.pretty"
done

# Options: packetized metadata (magic 0x75D11D57 in either byte order), small packets.
t=babeltrace/succeed/wk-heartbeat-u; name=${t//\//_}
if "$TK" convert "$ctf/$t" -o "$work/pm" --to ctf --ctf-packetized-metadata --ctf-packet-size 512 2>"$work/pm.err"; then
  magic=$(od -An -tx1 -N4 "$work/pm/metadata" | tr -d ' ')
  if [ "$magic" = 571dd175 ] || [ "$magic" = 75d11d57 ]; then echo "ok   packetized metadata"; else
    echo "FAIL packetized metadata: magic $magic"; failed=$((failed+1)); fi
  babeltrace2 "$work/pm" >"$work/pm.got" 2>/dev/null
  same "packetized + 512-byte packets" "$work/pm.got" "$ctf/expected/$name.pretty"
else
  echo "FAIL options: $(head -2 "$work/pm.err")"; failed=$((failed+1))
fi

# perf -> CTF against perf's own converter.
if command -v perf >/dev/null && perf record -q -o "$work/probe.data" -- true >/dev/null 2>&1; then
  for mode in plain callchain tracepoints; do
    args=(); [ $mode = callchain ] && args=(-g)
    [ $mode = tracepoints ] && args=(-e sched:sched_process_exec -e raw_syscalls:sys_enter)
    perf record -q "${args[@]}" -o "$work/$mode.data" -- ls -R /usr/share/doc >/dev/null 2>&1 || continue
    for all in "" --all; do
      v=$mode$all
      perf data convert $all --to-ctf="$work/$v.perf" -i "$work/$mode.data" >/dev/null 2>&1 || continue
      if ! "$TK" convert $all "$work/$mode.data" -o "$work/$v.ours" --to ctf 2>"$work/$v.err"; then
        echo "FAIL perf $v: $(head -2 "$work/$v.err")"; failed=$((failed+1)); continue
      fi
      babeltrace2 "$work/$v.ours" >"$work/$v.got" 2>&1
      babeltrace2 "$work/$v.perf" >"$work/$v.want" 2>&1
      same "perf $v" "$work/$v.got" "$work/$v.want"
    done
  done

  # The tracepoint model (common_* fields first, as perf's CTF has them)
  # back to perf.data through the perf writer, which writes its own common
  # fields: from two inputs merged and from perf's own CTF. Once a hang.
  if [ -s "$work/tracepoints.data" ] && [ -d "$work/tracepoints.perf" ]; then
    for src in merge ctf; do
      checked=$((checked+1))
      in=("$work/tracepoints.data" "$work/tracepoints.data"); [ $src = ctf ] && in=("$work/tracepoints.perf")
      rm -f "$work/back.data"
      if ! timeout 60 "$TK" convert "${in[@]}" -o "$work/back.data" 2>"$work/back.err"; then
        echo "FAIL tracepoints $src -> perf: $(head -2 "$work/back.err")"; failed=$((failed+1)); continue
      fi
      n=$(perf script -i "$work/back.data" 2>/dev/null | grep -c "common_\|filename=")
      want=$(perf script -i "$work/tracepoints.data" 2>/dev/null | grep -c "filename=")
      [ $src = merge ] && want=$((want * 2))
      if [ "$n" = "$want" ] && [ "$n" -gt 0 ]; then echo "ok   tracepoints $src -> perf"; else
        echo "FAIL tracepoints $src -> perf: $n lines with filename= (want $want, none with common_)"
        failed=$((failed+1)); fi
    done
  fi

  # SIGKILL part-way. The property does not depend on when the kill lands:
  # OUT is either absent or complete, reading back exactly as an
  # uninterrupted conversion of the same input (the kill may come after the
  # rename, on a loaded machine, and that is fine).
  perf record -q -a -g -F 5000 -o "$work/big.data" -- sleep 3 >/dev/null 2>&1
  "$TK" convert "$work/big.data" -o "$work/whole" --to ctf 2>/dev/null &&
    babeltrace2 "$work/whole" >"$work/whole.txt" 2>&1
  killed=0
  for delay in 0.3 0.15 0.05 0.02; do
    rm -rf "$work/killed"
    "$TK" convert "$work/big.data" -o "$work/killed" --to ctf 2>/dev/null &
    pid=$!
    sleep $delay
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    killed=$((killed+1))
    checked=$((checked+1))
    if [ ! -e "$work/killed" ]; then
      echo "ok   SIGKILL after ${delay}s: nothing at OUT"
    elif babeltrace2 "$work/killed" >"$work/killed.txt" 2>&1 && cmp -s "$work/killed.txt" "$work/whole.txt"; then
      echo "ok   SIGKILL after ${delay}s: OUT complete, equal to the uninterrupted conversion"
    else
      echo "FAIL SIGKILL after ${delay}s left an incomplete $work/killed"; failed=$((failed+1))
    fi
  done
else
  echo "SKIP perf cases: perf cannot record here"
fi

echo "$checked checked, $failed failed"
[ $failed -eq 0 ]
