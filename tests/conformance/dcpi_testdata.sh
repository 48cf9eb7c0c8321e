#!/usr/bin/env bash
# DCPI profiles in ../shared/testdata/dcpi:
# - `tracekit print NAME.prof` equals NAME.expect byte for byte;
# - every bad-*.prof is rejected: exit 1, "tracekit: FILE: offset 0x...: ...";
# - `tracekit convert X.prof -o Y.prof` is a byte-identical copy, and so is a
#   whole database (DB/EPOCH/HOST/...) copied with convert;
# - a database prints, lists and counts every profile below it.
set -u
: "${TK:?}" "${TK_TESTDATA:?}"
dir=$TK_TESTDATA/dcpi
[ -d "$dir" ] || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { echo "FAIL $*"; fail=$((fail+1)); }

for f in "$dir"/*.prof; do
  name=$(basename "$f" .prof)
  case $name in
  bad-*)
    err=$("$TK" print "$f" 2>&1 >/dev/null); rc=$?
    if [ $rc -eq 1 ] && [[ "$err" == "tracekit: $f: offset 0x"*": "* ]]; then ok
    else bad "$name: want exit 1 with an offset, got $rc: $err"; fi
    "$TK" convert "$f" -o "$tmp/$name.prof" 2>/dev/null
    if [ $? -eq 1 ] && [ ! -e "$tmp/$name.prof" ]; then ok
    else bad "$name: convert must fail and leave no output"; fi
    ;;
  *)
    if [ -f "$dir/$name.expect" ]; then
      if "$TK" print "$f" | cmp -s - "$dir/$name.expect"; then ok
      else bad "$name: print differs from $name.expect"; "$TK" print "$f" | diff - "$dir/$name.expect" | head -5; fi
    fi
    if "$TK" convert "$f" -o "$tmp/$name.prof" && cmp -s "$f" "$tmp/$name.prof"; then ok
    else bad "$name: convert is not a byte-identical copy"; fi
    # the listing of the copy is the listing of the original
    if cmp -s <("$TK" print --format dcpicat "$f") <("$TK" print --format dcpicat "$tmp/$name.prof"); then ok
    else bad "$name: dcpicat of the copy differs"; fi
    "$TK" info "$f" >/dev/null && ok || bad "$name: info failed"
    ;;
  esac
done

# A database: DB/EPOCH/HOST/profiles.
db=$tmp/db/9805191724/walnut
mkdir -p "$db"
cp "$dir"/simple.prof "$dir"/version-006.prof "$dir"/optional-unknown.prof "$db"/
expect_all=$(for n in optional-unknown simple version-006; do cat "$dir/$n.expect"; done)
got_all=$("$TK" print "$tmp/db" | grep -v '^==> ' | grep -v '^$')
[ "$got_all" = "$expect_all" ] && ok || bad "database: print is not every profile's listing in path order"
"$TK" stats "$tmp/db" | tail -1 | grep -qx 'total: 3 profiles, 174 samples, 27 addresses' && ok ||
  bad "database: stats totals: $("$TK" stats "$tmp/db" | tail -1)"
[ "$("$TK" print --event imiss "$tmp/db" | grep -c "^version")" = 1 ] && [ "$("$TK" print --event imiss "$tmp/db" | grep "^version")" = "version pdb-0.06" ] && ok ||
  bad "database: --event does not select profiles by event"
"$TK" convert "$tmp/db" -o "$tmp/db2" --to dcpi && diff -r "$tmp/db" "$tmp/db2" >/dev/null && ok ||
  bad "database: convert is not an identical copy"
# An epoch or host directory is a database too.
[ "$("$TK" print "$db" | grep -c '^version')" = 3 ] && ok || bad "host directory not read as a database"
# A bad profile inside a database fails the whole command, naming it.
cp "$dir/bad-footer.prof" "$db/"
err=$("$TK" print "$tmp/db" 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] && [[ "$err" == *"bad-footer.prof: offset 0x"* ]] && ok || bad "database with a bad profile: $rc $err"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
