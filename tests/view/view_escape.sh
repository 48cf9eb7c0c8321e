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
exit $fail
