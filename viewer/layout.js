/* tracekit view: the track tree and its vertical layout. Groups (a
 * process with its threads, the CPUs, CTF streams, CPEL tracks, a profile,
 * counters) are sorted by kind then id; each is a header row followed,
 * unless collapsed, by its tracks (CPUs first, as Perfetto shows them); a span track is one row per nesting
 * depth, a counter track two rows. The search box filters by name. */
var TK = typeof window !== 'undefined' ? (window.TK = window.TK || {}) : module.exports;
(function (TK) {
  'use strict';
  var GROUP_RANK = {cpu: 0, process: 1, stream: 2, cpel: 3, profile: 4, counter: 5};
  var TRACK_RANK = {spans: 0, events: 1, counter: 2};
  TK.groupOrder = function (groups) {
    var idx = groups.map(function (_, i) { return i; });
    idx.sort(function (a, b) {
      var x = groups[a], y = groups[b];
      return (GROUP_RANK[x.kind] - GROUP_RANK[y.kind]) || (x.input - y.input) ||
        (x.id - y.id) || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0) || a - b;
    });
    return idx;
  };
  TK.trackOrder = function (tracks) {
    var idx = tracks.map(function (_, i) { return i; });
    function key(t) { return t.tid >= 0 ? t.tid : t.cpu >= 0 ? t.cpu : -1; }
    /* a track's spans ("cpu 0 states") next to its events ("cpu 0") */
    function base(t) { return t.name.replace(/ (states?|syscalls|calls)$/, ''); }
    idx.sort(function (a, b) {
      var x = tracks[a], y = tracks[b], bx = base(x), by = base(y);
      return (x.group - y.group) || (key(x) - key(y)) || (bx < by ? -1 : bx > by ? 1 : 0) ||
        (TRACK_RANK[x.kind] - TRACK_RANK[y.kind]) ||
        (x.name < y.name ? -1 : x.name > y.name ? 1 : 0) || a - b;
    });
    return idx;
  };
  TK.trackRows = function (track) {
    if (track.kind === 'counter') return 2;
    return Math.max(1, track.rows.length);
  };
  /* opts: {collapsed: Set of group ids, filter: text, rowH, groupH}.
   * Returns {items: [{type, group, track, y, h}], height}. */
  TK.buildLayout = function (groups, tracks, opts) {
    var rowH = opts.rowH || 18, groupH = opts.groupH || 22;
    var filter = (opts.filter || '').toLowerCase();
    var byGroup = groups.map(function () { return []; });
    TK.trackOrder(tracks).forEach(function (ti) { byGroup[tracks[ti].group].push(ti); });
    var items = [], y = 0;
    TK.groupOrder(groups).forEach(function (gi) {
      var g = groups[gi];
      var gmatch = !filter || g.name.toLowerCase().indexOf(filter) >= 0;
      var shown = byGroup[gi].filter(function (ti) {
        return gmatch || tracks[ti].name.toLowerCase().indexOf(filter) >= 0;
      });
      if (!shown.length) return;
      var collapsed = opts.collapsed && opts.collapsed.has(gi);
      items.push({type: 'group', group: gi, track: -1, y: y, h: groupH, collapsed: collapsed,
        count: shown.length});
      y += groupH;
      if (collapsed) return;
      shown.forEach(function (ti) {
        var h = TK.trackRows(tracks[ti]) * rowH;
        items.push({type: 'track', group: gi, track: ti, y: y, h: h});
        y += h;
      });
    });
    return {items: items, height: y, rowH: rowH};
  };
  /* The item at height y, or null. */
  TK.hitItem = function (layout, y) {
    var it = layout.items, lo = 0, hi = it.length;
    while (lo < hi) { var m = (lo + hi) >>> 1; if (it[m].y + it[m].h <= y) lo = m + 1; else hi = m; }
    return lo < it.length && it[lo].y <= y ? it[lo] : null;
  };
  /* Items that intersect [top, bottom). */
  TK.visibleItems = function (layout, top, bottom) {
    var it = layout.items, lo = 0, hi = it.length;
    while (lo < hi) { var m = (lo + hi) >>> 1; if (it[m].y + it[m].h <= top) lo = m + 1; else hi = m; }
    var out = [];
    for (var i = lo; i < it.length && it[i].y < bottom; i++) out.push(it[i]);
    return out;
  };
})(TK);
