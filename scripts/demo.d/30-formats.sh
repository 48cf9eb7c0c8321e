#!/usr/bin/env bash
# Demo, part 3: the other formats, from the shared conformance data when it
# sits beside the checkout (../shared/testdata); skipped otherwise.
set -euo pipefail
: "${TK:?}"
td=${TK_TESTDATA:-../shared/testdata}
[ -d "$td" ] || { echo; echo "(no $td: skipping the CTF/CPEL/DCPI part of the demo)"; exit 0; }
run() { echo; echo "\$ tracekit $*"; "$TK" "$@" | head -4; }
run print --format babeltrace "$td/ctf/babeltrace/succeed/wk-heartbeat-u"
run print --format cpeldump "$td/cpel/vpp-small.cpel"
run report --state rx-burst: "$td/cpel/vpp-small.cpel"
run print "$td/dcpi/simple.prof"
