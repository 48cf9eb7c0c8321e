#!/usr/bin/env bash
# ctest fixture of the browser tests: npm's playwright-core (the driver
# only; the browser is Debian's chromium) installed into the build tree,
# never into the source tree. Skips (77) without node/npm, chromium, or a
# registry to install from.
set -u
: "${TK_BUILD_DIR:?}"
dir="$TK_BUILD_DIR/npm"
command -v node >/dev/null && command -v npm >/dev/null || { echo "SKIP: node/npm not installed"; exit 77; }
chrome=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chrome" ] || { echo "SKIP: chromium is not installed (scripts/install-deps.sh installs it)"; exit 77; }
if [ -f "$dir/node_modules/playwright-core/package.json" ]; then
  echo "playwright-core already in $dir"; exit 0
fi
mkdir -p "$dir"
if ! npm install --silent --no-audit --no-fund --prefix "$dir" playwright-core@1 >"$dir/install.log" 2>&1; then
  echo "SKIP: npm could not install playwright-core:"; tail -5 "$dir/install.log"; exit 77
fi
echo "playwright-core installed in $dir"
