#!/usr/bin/env bash
# An event name holding "</script>", quotes and an entity cannot break out
# of the page: the only </script> closers are the page's own, the name is
# in the JSON with '<' escaped, and (with chromium) the page shows it as
# text, unchanged, without running it.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}" "${TK_BUILD_DIR:?}" "${TK_TESTDATA:?}"
src="$TK_TESTDATA/ctf/babeltrace/succeed/smalltrace"
[ -d "$src" ] || { echo "SKIP: $src is missing"; exit 77; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cp -r "$src" "$work/t"
evil='</script><script>document.title="pwned"</script>"q'"'"'&amp;<!--'
esc=$(printf '%s' "$evil" | sed 's/["\\]/\\&/g')
ESC=$esc awk '{ if ($0 ~ /name = string;/) print "\tname = \"" ENVIRON["ESC"] "\";"; else print }' \
  "$src/metadata" >"$work/t/metadata"
"$TK" stats "$work/t" | grep -qF "$evil" || { echo "FAIL: the test trace does not name its event $evil"; exit 1; }
"$TK" view "$work/t" -o "$work/v.html" || { echo "FAIL: tracekit view exit $?"; exit 1; }
fail=0
opens=$(grep -o '<script' "$work/v.html" | wc -l); closes=$(grep -o '</script>' "$work/v.html" | wc -l)
if [ "$opens" -eq "$closes" ]; then echo "ok: $closes </script> closers, one per <script> element"
else echo "FAIL: $opens <script> but $closes </script>"; fail=1; fi
if grep -q 'pwned' "$work/v.html" && ! grep -q '\\u003c/script\\u003e\\u003cscript\\u003edocument.title' "$work/v.html"; then
  echo "FAIL: the name is not escaped in the page"; fail=1
else echo "ok: the name is in the page's JSON with < escaped"; fi
if [ -f "$TK_BUILD_DIR/npm/node_modules/playwright-core/package.json" ] && command -v node >/dev/null; then
  art="$TK_BUILD_DIR/view-artefacts/escape"; rm -rf "$art"; mkdir -p "$art"
  cp "$work/v.html" "$art/view.html"
  rc=0
  TK_BUILD_DIR="$TK_BUILD_DIR" node "$TK_SOURCE_DIR/tests/view/drive.js" "$art/view.html" "$art" >"$art/drive.json" 2>"$art/drive.err" || rc=$?
  if [ $rc -eq 0 ]; then
    got=$(jq -r '.whole.names[0][0]' "$art/drive.json")
    if [ "$got" = "$evil" ] && [ "$(jq -r '.errors | length' "$art/drive.json")" = 0 ]; then
      echo "ok: chromium shows the name as text, unchanged, no script ran"
    else echo "FAIL: chromium shows '$got' (errors: $(jq -c .errors "$art/drive.json"))"; fail=1; fi
    title=$(jq -r '.title' "$art/drive.json")
    [ "$title" = "tracekit view" ] && echo "ok: title unchanged" || { echo "FAIL: title is '$title'"; fail=1; }
  elif [ $rc -ne 77 ]; then echo "FAIL: browser driver:"; tail -5 "$art/drive.err"; fail=1
  else echo "note: chromium cannot run here; the page was checked as text only"; fi
fi
# The same text as a field value (a CPEL datum string printed with %s):
# the details line is in the page with '<' escaped, and chromium shows the
# clicked event's field as text, unchanged.
/usr/bin/python3 - "$work/e.cpel" "$evil" <<'PY'
import struct, sys
strtab = bytearray(b"S\0")
def s(text):
    off = len(strtab); strtab.extend(text.encode() + b"\0"); return off
name, fmt, track, word = s("EVIL"), s("%s"), s("t0"), s(sys.argv[2])
while len(strtab) % 8: strtab.append(0)
n64 = lambda x: x.encode().ljust(64, b"\0")
with open(sys.argv[1], "wb") as f:
    f.write(struct.pack(">BBHI", 1, 0, 4, 1700000000))
    f.write(struct.pack(">II", 1, len(strtab)) + strtab)
    f.write(struct.pack(">II", 3, 68 + 12) + n64("S") + struct.pack(">I", 1) + struct.pack(">III", 0, name, fmt))
    f.write(struct.pack(">II", 4, 68 + 8) + n64("S") + struct.pack(">I", 1) + struct.pack(">II", 0, track))
    f.write(struct.pack(">II", 5, 72 + 20 * 3) + n64("S") + struct.pack(">II", 3, 1000000000))
    for i in range(3):
        f.write(struct.pack(">IIIII", 0, 1000 * (i + 1), 0, 0, word))
PY
"$TK" print --format json "$work/e.cpel" | jq -e --arg e "$evil" 'select(.payload.text == $e)' >/dev/null ||
  { echo "FAIL: the CPEL test file does not carry $evil as a field"; exit 1; }
"$TK" view -q "$work/e.cpel" -o "$work/e.html" || { echo "FAIL: tracekit view exit $?"; exit 1; }
det=$(sed -n '/id="tk-details">/,/<\/script>/p' "$work/e.html" | sed 's/.*id="tk-details">//; s/<\/script>.*//')
if printf '%s' "$det" | grep -q '<'; then echo "FAIL: a raw '<' in the details element"; fail=1
elif printf '%s' "$det" | grep -qF 'document.title=\"pwned\"'; then echo "ok: the field value is in the details with < escaped"
else echo "FAIL: the field value is not in the details: $det"; fail=1; fi
if [ -f "$TK_BUILD_DIR/npm/node_modules/playwright-core/package.json" ] && command -v node >/dev/null; then
  art="$TK_BUILD_DIR/view-artefacts/escape-field"; rm -rf "$art"; mkdir -p "$art"
  cp "$work/e.html" "$art/view.html"
  rc=0
  TK_BUILD_DIR="$TK_BUILD_DIR" node "$TK_SOURCE_DIR/tests/view/drive.js" "$art/view.html" "$art" >"$art/drive.json" 2>"$art/drive.err" || rc=$?
  if [ $rc -eq 0 ]; then
    if jq -e --arg e "$evil" '.details.text == $e and .title == "tracekit view" and (.errors | length) == 0' "$art/drive.json" >/dev/null; then
      echo "ok: chromium shows the field value as text, unchanged, no script ran"
    else echo "FAIL: chromium shows the field as $(jq -c '.details.text, .title, .errors' "$art/drive.json")"; fail=1; fi
  elif [ $rc -ne 77 ]; then echo "FAIL: browser driver:"; tail -5 "$art/drive.err"; fail=1; fi
fi
exit $fail
