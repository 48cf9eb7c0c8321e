# Shared by the browser tests of tracekit view: writes the page, drives it
# in headless chromium (drive.js) and checks the JSON it printed with jq.
# Artefacts (page, JSON, screenshots) stay in $TK_BUILD_DIR/view-artefacts/NAME.
: "${TK:?}" "${TK_SOURCE_DIR:?}" "${TK_BUILD_DIR:?}" "${TK_TESTDATA:?}"
fail=0
command -v jq >/dev/null || { echo "SKIP: jq is not installed (scripts/install-deps.sh installs it)"; exit 77; }
command -v node >/dev/null || { echo "SKIP: node is not installed"; exit 77; }
[ -f "$TK_BUILD_DIR/npm/node_modules/playwright-core/package.json" ] ||
  { echo "SKIP: playwright-core is not in the build tree (the view/setup test installs it)"; exit 77; }

# view_drive NAME INPUT...: the page and the driver's JSON in $art.
view_drive() {
  local name=$1; shift
  art="$TK_BUILD_DIR/view-artefacts/$name"
  rm -rf "$art"; mkdir -p "$art"
  "$TK" view -q "$@" -o "$art/view.html" || { echo "FAIL: tracekit view $* (exit $?)"; exit 1; }
  local rc=0
  TK_BUILD_DIR="$TK_BUILD_DIR" node "$TK_SOURCE_DIR/tests/view/drive.js" "$art/view.html" "$art" \
    ${VIEW_DRIVE_ARGS:-} >"$art/drive.json" 2>"$art/drive.err" || rc=$?
  if [ $rc -eq 77 ]; then echo "SKIP: $(jq -r .skip "$art/drive.json")"; exit 77; fi
  [ $rc -eq 0 ] || { echo "FAIL: the browser driver failed:"; tail -20 "$art/drive.err"; exit 1; }
  J="$art/drive.json"
  check '.errors == []' "no errors in the page"
  [ -n "${VIEW_DRIVE_ARGS:-}" ] || check_layout
}

# check_layout: what the screenshots once showed wrong. The first window
# and the ruler's first label are the trace's start (not before it); the
# flame graph's root row lies inside the panel in view; the symbol
# table's columns are not cut off (nothing to scroll sideways).
check_layout() {
  check '.initial.v0 == 0 and .initial.v1 == ([.span, 1] | max)' "the first view is the whole trace from its start"
  check '.initialRuler[0].t == 0 and (.initialRuler[0].text | test("^-") | not)' \
    "the ruler's first label is the trace's start ($(jq -r '.initialRuler[0].text' "$J"))"
  check '.flame.samples == 0 or (.flameLayout.root != null and .flameLayout.root.bottom <= .flameLayout.tab.bottom
         and .flameLayout.root.top >= .flameLayout.tab.top and .flameLayout.root.bottom <= .flameLayout.canvas.bottom)' \
    "the flame graph's root row is inside the panel"
  check '.flameLayout.table.rows == 0 or .flameLayout.table.scrollWidth <= .flameLayout.table.clientWidth' \
    "the symbol table is not cut off (scrollWidth <= clientWidth)"
  check_stats_range
}

# check_stats_range: the statistics give the selection's bounds as the
# ruler gives times: from the trace's start (s.ns) while the ruler does,
# on the trace's clock (a time of day for epoch clocks) after the toggle;
# the tooltip has the other form.
check_stats_range() {
  local defs='def ns9: ("000000000" + tostring) | .[-9:];
    def rel: (. / 1e9 | floor) as $s | "\($s).\(. - $s * 1e9 | ns9)";
    def abs($epoch): ("0000000000" + .) as $p | ($p[0:-9] | tonumber) as $s
      | (if $epoch then $s | todate | sub("T"; " ") | sub("Z"; "") else $s | tostring end) + "." + $p[-9:];
    .epoch as $e | ((.selection.a | rel) + " .. " + (.selection.b | rel)) as $rel
    | ((.selection.begin | abs($e)) + " .. " + (.selection.end | abs($e))) as $abs'
  check "$defs | .selRange.rel.text == \$rel + \" s\" and (.selRange.rel.title | endswith(\": \" + \$abs))" \
    "the statistics show the selection from the trace's start, as the ruler ($(jq -r .selRange.rel.text "$J")), the clock in the tooltip"
  check "$defs | .selRange.abs.text == \$abs and .selRange.abs.title == \"from the trace's start: \" + \$rel + \" s\"" \
    "after the time toggle, the trace's clock as the ruler ($(jq -r .selRange.abs.text "$J")), relative in the tooltip"
}

# same_lines WANT GOT OK-TEXT FAIL-TEXT: the two files (lines from the
# reference tool, lines from the page) equal, and WANT not empty; a
# failure shows the diff and keeps both files in $art.
same_lines() {
  if [ -s "$1" ] && diff -u "$1" "$2"; then echo "ok: $3"
  else echo "FAIL: $4"; cp "$1" "$2" "$art/" 2>/dev/null; fail=1; fi
}

# check JQ_EXPR WHAT [--arg k v ...]: the expression must be true of the JSON.
check() {
  local expr=$1 what=$2; shift 2
  if jq -e "$@" "$expr" "$J" >/dev/null; then echo "ok: $what"
  else echo "FAIL: $what ($expr)"; fail=1; fi
}

# The key tests: W x5 zooms by 0.8^5 about the centre, D pans by a tenth,
# Home and End put the window at the trace's start and end.
check_keys() {
  check '(.keys.start.v1 - .keys.start.v0) as $w | (.keys.zoomed.v1 - .keys.zoomed.v0) as $z
         | (($z / $w) - 0.32768 | fabs) < 1e-6' "W x5 zooms in by 0.8^5"
  check '((.keys.start.v0 + .keys.start.v1) - (.keys.zoomed.v0 + .keys.zoomed.v1) | fabs) < 1e-3 * (.keys.start.v1 - .keys.start.v0)' \
    "the zoom keeps the centre"
  check '(.keys.zoomed.v1 - .keys.zoomed.v0) as $z | ((.keys.panned.v0 - .keys.zoomed.v0) - 0.1 * $z | fabs) < 1e-6 * $z' \
    "D pans right by a tenth of the window"
  check '(.keys.home.v0 | fabs) < 1 and ((.keys.end.v1 - .span) | fabs) < 1' \
    "Home / End show the trace's start / end"
  check '.zoomedToSelection.begin == .selection.begin and .zoomedToSelection.end == .selection.end' \
    "Z zooms to the selection"
  check '.reopened.after.begin == .reopened.before.begin and .reopened.after.end == .reopened.before.end' \
    "reloading the page (URL fragment) restores the view"
}

# check_details: the clicked event is the one picked and shown, at its time.
# check_details [same-time]: with same-time (entries that all share one
# time, as a profile's), any entry of the track at that time will do.
check_details() {
  if [ "${1:-}" = same-time ]; then
    check '.picked.track == .clicked.track' "a click picks an event at the mouse's time on its track"
  else
    check '.picked.track == .clicked.track and .picked.i == .clicked.i' "a click picks the event under the mouse"
  fi
  check '.details.name == .clicked.name' "details show the clicked event's name"
  check '.chaseNext.track == .picked.track and .chaseNext.i == .expectNext and .chaseBack.i == .picked.i' \
    "] and [ chase the next / previous event of the same name on the track"
  check '.chaseTrack.expect == null or (.chaseTrack.got.track == .chaseTrack.expect.track and .chaseTrack.got.i == .chaseTrack.expect.i
         and .chaseTrack.back.i == .chaseBack.i)' ". and , chase the next / previous event on the track"
  check '(.chaseDatum.expect == null and .chaseDatum.got.i == .chaseBack.i) or (.chaseDatum.got.track == .chaseDatum.expect.track
         and .chaseDatum.got.i == .chaseDatum.expect.i and .chaseDatum.back.i == .chaseBack.i)' \
    "> and < chase the next / previous event with the same fields (datum) ($(jq -c '.chaseDatum.expect' "$J"))"
  check '. as $d | .search.matches == ([$d.whole.names[], $d.whole.spanNames[] | select(.[0] == $d.clicked.name) | .[1] | tonumber] | add)
         and (.search.info | test("^[0-9]+ / [0-9]+$"))' "searching the name finds every entry of that name"
  check '. as $d | .tooltip != null and (.tooltip | startswith($d.clicked.name))' "hovering shows a tooltip with its name"
}

# check_flame_zoom: a click in the flame graph zooms on a frame below the root.
check_flame_zoom() {
  check '.flameFocus.id > 0 and .flameFocus.total > 0 and .flameFocus.total <= .flame.weight' \
    "a click in the flame graph zooms on that frame"
}

# abs_time NS: "SEC.NANOSEC" as the details show the trace clock.
abs_time() { printf '%d.%09d' $(( $1 / 1000000000 )) $(( $1 % 1000000000 )); }

finish() {
  echo "artefacts: $art"
  exit $fail
}
