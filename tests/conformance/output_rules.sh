#!/usr/bin/env bash
# The -o rules of `tracekit convert` (README "Output paths"): output never
# destroys what is not ours.
# - a regular or absent path is replaced atomically; a character device,
#   FIFO or socket is written through and stays what it was; a write error
#   (ENOSPC on /dev/full) is exit 1 with a message;
# - a symlink is followed and the rule applied to its target (the link stays);
# - a CTF directory output onto a non-empty directory is refused unless
#   --force, which must not remove an input;
# - OUT equal to an input (same name, symlink, hard link) is refused;
# - "-" is stdout; a format that cannot stream there is a usage error (2).
set -u
: "${TK:?}" "${TK_TESTDATA:?}"
export LC_ALL=C
work=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$work"' EXIT
cd "$work" || exit 1
fail=0; n=0
ok() { n=$((n+1)); }
bad() { echo "FAIL $*"; fail=1; }
# run NAME WANT_RC CMD...: runs the command, checks its exit status
run() {
  local name=$1 want=$2; shift 2
  "$@" >"$name.out" 2>"$name.err"; local rc=$?
  if [ $rc -ne "$want" ]; then bad "$name: exit $rc, want $want: $(head -2 "$name.err")"; return 1; fi
  ok; return 0
}
# reap PID FIFO: waits for the FIFO's reader; a reader left blocked on a
# FIFO that was replaced (so no writer will ever come) is killed, not waited for
reap() { [ -p "$2" ] || [ -S "$2" ] || kill "$1" 2>/dev/null; wait "$1" 2>/dev/null; }
IN=$TK_TESTDATA/perf/lpd/sleep.data
CTF=$TK_TESTDATA/ctf/babeltrace/succeed/succeed1
cp "$IN" in.data && chmod 644 in.data
# pipe mode carries no event names (perf's pipe mode neither): compare the rest
noname() { sed 's/"event":"[^"]*",//'; }
"$TK" convert in.data -o ref.jsonl --to json || { echo "FAIL reference conversion"; exit 1; }
[ -s ref.jsonl ] || { echo "FAIL empty reference"; exit 1; }

# character devices: written through, never replaced. As root, private
# nodes of /dev/full and /dev/null, so a writer that replaces device nodes
# fails this test without breaking the machine's /dev; else the real ones
# (a user cannot replace them).
full=/dev/full null=/dev/null
if mknod full.dev c 1 7 2>/dev/null && mknod null.dev c 1 3 2>/dev/null; then
  full=$work/full.dev null=$work/null.dev
fi
if [ -w "$full" ] && [ -c "$full" ]; then
  run full 1 "$TK" convert in.data -o "$full" --to json &&
    { grep -q "No space left on device" full.err || bad "full: no ENOSPC message: $(cat full.err)"; }
  [ -c "$full" ] || bad "$full is no longer a character device"
fi
# a write error in the middle of a big output (not only at the final flush):
# every writer names the output and says why, exit 1
for to in json chrome perf cpel folded pprof speedscope svg; do
  if [ -w "$full" ] && [ -c "$full" ]; then
    run "full_$to" 1 "$TK" convert "$TK_TESTDATA/perf/pdc/with-callchain.perf.data" -o "$full" --to $to &&
      { grep -q "^tracekit: $full: .*No space left on device" "full_$to.err" ||
        bad "full_$to: $(cat "full_$to.err")"; }
  fi
done
[ -c "$full" ] || bad "$full is no longer a character device"
run null 0 "$TK" convert in.data -o "$null" --to json
[ -c "$null" ] || bad "$null is no longer a character device"

# FIFO: its reader gets the whole output, the FIFO stays a FIFO
mkfifo f.jsonl
cat f.jsonl > fifo.got & rd=$!; pids+=($rd)
run fifo 0 "$TK" convert in.data -o f.jsonl
reap $rd f.jsonl
[ -p f.jsonl ] || bad "fifo: f.jsonl is no longer a FIFO"
cmp -s fifo.got ref.jsonl || bad "fifo: the reader did not get the conversion"
# perf -> perf into a FIFO is pipe mode (as perf record does with a FIFO)
mkfifo p.data
cat p.data > pipe.got & rd=$!; pids+=($rd)
run fifo_perf 0 "$TK" convert in.data -o p.data
reap $rd p.data
[ -p p.data ] || bad "fifo_perf: p.data is no longer a FIFO"
"$TK" print --format json pipe.got 2>/dev/null | noname > pipe.json
"$TK" print --format json in.data | noname > in.json
cmp -s pipe.json in.json || bad "fifo_perf: the pipe-mode copy does not print as the input"
# file-mode perf.data (from CTF) cannot go to a FIFO: an error, the FIFO stays
mkfifo q.data
cat q.data > /dev/null & rd=$!; pids+=($rd)
run fifo_perf_file 1 "$TK" convert "$CTF" -o q.data --to perf
reap $rd q.data
[ -p q.data ] || bad "fifo_perf_file: q.data is no longer a FIFO"

# Unix socket: connected and written to, not replaced
if /usr/bin/python3 -c 'import socket' 2>/dev/null; then
  /usr/bin/python3 - "$work/s.jsonl" "$work/sock.got" <<'PY' & srv=$!; pids+=($srv)
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1]); s.listen(1)
c, _ = s.accept()
with open(sys.argv[2] + ".tmp", "wb") as f:
    while True:
        b = c.recv(65536)
        if not b:
            break
        f.write(b)
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
PY
  for _ in $(seq 1 500); do [ -S s.jsonl ] && break; sleep 0.02; done
  run socket 0 "$TK" convert in.data -o s.jsonl
  reap $srv s.jsonl
  [ -S s.jsonl ] || bad "socket: s.jsonl is no longer a socket"
  cmp -s sock.got ref.jsonl || bad "socket: the listener did not get the conversion"
fi

# the process's own descriptors are written as they are: an append stays one
echo keep > append.jsonl
"$TK" convert in.data -o /dev/stdout --to json >> append.jsonl 2>/dev/null
{ echo keep; cat ref.jsonl; } | cmp -s - append.jsonl || bad "/dev/stdout: the appended-to file was replaced"
"$TK" convert in.data -o /dev/fd/9 --to json 9> fd9.jsonl
cmp -s fd9.jsonl ref.jsonl || bad "/dev/fd/9: not written to the descriptor"
# a replaced regular file keeps its permissions
echo old > private.jsonl; chmod 600 private.jsonl
run private 0 "$TK" convert in.data -o private.jsonl
[ "$(stat -c %a private.jsonl)" = 600 ] || bad "private: mode $(stat -c %a private.jsonl), want 600"

# symlinks: followed (relative to the link's directory), the link stays
mkdir d
echo old > d/target.jsonl
ln -s target.jsonl d/link.jsonl
ln -s d/link.jsonl chain.jsonl
run symlink 0 "$TK" convert in.data -o chain.jsonl
[ -L chain.jsonl ] && [ -L d/link.jsonl ] || bad "symlink: a link was replaced"
cmp -s d/target.jsonl ref.jsonl || bad "symlink: the target does not hold the conversion"
ln -s absent.jsonl dangling.jsonl
run dangling 0 "$TK" convert in.data -o dangling.jsonl
[ -L dangling.jsonl ] || bad "dangling: the link was replaced"
cmp -s absent.jsonl ref.jsonl || bad "dangling: the target was not created"

# output = input, under any name: refused, input intact
ln -s in.data sym.data
ln in.data hard.data
for o in in.data sym.data hard.data; do
  run "same_$o" 2 "$TK" convert in.data -o "$o"
  run "same_rev_$o" 2 "$TK" convert "$o" -o in.data --to json
done
cmp -s in.data "$IN" || bad "same: the input was changed"
run same_ctf 2 "$TK" convert "$CTF" -o "$CTF" --to ctf

# "-": stdout; no file named "-"; formats that cannot stream: usage error
run dash_noto 2 "$TK" convert in.data -o -
run dash_ctf 2 "$TK" convert in.data -o - --to ctf
run dash_perf_model 2 "$TK" convert "$CTF" -o - --to perf
run dash_perf_two 2 "$TK" convert in.data in.data -o - --to perf
run dash_perf_limit 2 "$TK" convert in.data -o - --to perf --limit 3
[ -e ./- ] && bad "dash: a file named '-' was written"
run dash_json 0 "$TK" convert in.data -o - --to json && {
  cmp -s dash_json.out ref.jsonl || bad "dash_json: stdout is not the conversion"; }
run dash_perf 0 "$TK" convert in.data -o - --to perf && {
  "$TK" print --format json dash_perf.out 2>/dev/null | noname | cmp -s - in.json ||
    bad "dash_perf: the pipe-mode stdout does not print as the input"; }

# CTF directory output
"$TK" convert in.data -o fresh --to ctf || bad "ctf: fresh conversion failed"
"$TK" print fresh > fresh.txt
mkdir full; echo keep > full/keep
run ctf_nonempty 1 "$TK" convert in.data -o full --to ctf
[ "$(cat full/keep 2>/dev/null)" = keep ] || bad "ctf_nonempty: the directory was touched"
run ctf_force 0 "$TK" convert in.data -o full --to ctf --force
[ -e full/keep ] && bad "ctf_force: the old content is still there"
"$TK" print full 2>/dev/null | cmp -s - fresh.txt || bad "ctf_force: the trace differs"
ls -a | grep -q '\.tk-' && bad "ctf_force: a temporary was left: $(ls -a | grep '\.tk-')"
mkdir tdir; ln -s tdir tlink
run ctf_symlink 0 "$TK" convert in.data -o tlink --to ctf
[ -L tlink ] || bad "ctf_symlink: the link was replaced"
"$TK" print tdir 2>/dev/null | cmp -s - fresh.txt || bad "ctf_symlink: the target does not hold the trace"
mkdir tdir2; ln -s tdir2 tlink2
run ctf_symlink_slash 0 "$TK" convert in.data -o tlink2/ --to ctf
[ -L tlink2 ] || bad "ctf_symlink_slash: the link was replaced"
"$TK" print tdir2 2>/dev/null | cmp -s - fresh.txt || bad "ctf_symlink_slash: the target does not hold the trace"
echo x > plain
run ctf_onto_file 1 "$TK" convert in.data -o plain --to ctf
[ "$(cat plain)" = x ] || bad "ctf_onto_file: the file was replaced"
mkdir holder; cp in.data holder/in.data
run ctf_force_holds_input 2 "$TK" convert holder/in.data -o holder --to ctf --force
cmp -s holder/in.data "$IN" || bad "ctf_force_holds_input: the input was removed"

[ $fail -eq 0 ] && echo "output rules: $n checks passed"
exit $fail
