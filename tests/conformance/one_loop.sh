#!/usr/bin/env bash
# One loop per format (issue 12): no consumer outside src/<fmt>/ and
# src/session/ iterates a format's reader itself (scripts/check_one_loop.py).
# First proves the check can fail: a copy of a consumer with a planted
# reader loop must be reported (with its line), the same loop inside a
# comment or a string must not, nor a planted loop in a session driver.
set -u
: "${TK_SOURCE_DIR:?}"
check="$TK_SOURCE_DIR/scripts/check_one_loop.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/src/output" "$tmp/src/session" "$tmp/python"
cp "$TK_SOURCE_DIR/src/output/ctf_cli.c" "$tmp/src/output/ctf_cli.c"
/usr/bin/python3 "$check" "$tmp" >/dev/null || { echo "FAIL: the clean copy is reported"; exit 1; }

n=$(wc -l <"$tmp/src/output/ctf_cli.c")
cat >>"$tmp/src/output/ctf_cli.c" <<'C'
static void planted(ctf_reader *r)
{
	const ctf_event_out *ev;
	while (ctf_reader_next(r, &ev, NULL) == TK_OK)
		;
}
C
out=$(/usr/bin/python3 "$check" "$tmp" 2>&1)
want="src/output/ctf_cli.c:$((n + 4)): ctf_reader_next()"
grep -qF "$want" <<<"$out" || { echo "FAIL: planted loop not found ($want):"; echo "$out"; exit 1; }

# the same call in a comment or a string literal is not a loop
cp "$TK_SOURCE_DIR/src/output/ctf_cli.c" "$tmp/src/output/ctf_cli.c"
printf '%s\n' '/* while (tk_perf_next(f, &r, err) == TK_OK) */' \
	'// tk_source_next(src, &ev, err);' \
	'static const char *doc = "tk_source_next(src, &ev, err)";' >>"$tmp/src/output/ctf_cli.c"
/usr/bin/python3 "$check" "$tmp" >/dev/null || { echo "FAIL: a comment or a string is reported"; exit 1; }

# a session driver and a format's folder may loop; python/ may not
printf '%s\n' 'void d(void) { while (tk_perf_next(0, 0, 0) == 0) ; }' >"$tmp/src/session/x.c"
/usr/bin/python3 "$check" "$tmp" >/dev/null || { echo "FAIL: a session driver is reported"; exit 1; }
printf '%s\n' 'void p(void) { while (tk_source_next(0, 0, 0) == 0) ; }' >"$tmp/python/tkpy_x.c"
out=$(/usr/bin/python3 "$check" "$tmp" 2>&1)
grep -qF "python/tkpy_x.c:1: tk_source_next()" <<<"$out" || { echo "FAIL: python loop not found:"; echo "$out"; exit 1; }

# The tree itself.
/usr/bin/python3 "$check" "$TK_SOURCE_DIR"
