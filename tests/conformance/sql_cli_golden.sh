#!/usr/bin/env bash
# CLI golden cases of `tracekit sql` (tests/cli/sql_cases/*.cmd: command,
# expected stdout, stderr, exit status), through the golden harness of
# tests/cli; skipped when tracekit was built without SQLite. TK_REGEN=1
# rewrites the expected files, as for tests/cli/cases.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}" "${TK_TESTDATA:?}"
if "$TK" sql /dev/null 'SELECT 1' 2>&1 | grep -q 'not available'; then
  echo "SKIP: tracekit built without sqlite3"; exit 77
fi
fail=0; n=0
for c in "$TK_SOURCE_DIR"/tests/cli/sql_cases/*.cmd; do
  n=$((n+1))
  bash "$TK_SOURCE_DIR/tests/cli/run-golden.sh" "$c" || { echo "FAIL $(basename "$c" .cmd)"; fail=1; }
done
[ $fail -eq 0 ] && echo "$n sql golden cases"
exit $fail
