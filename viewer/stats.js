/* tracekit view: statistics of a time range [v0, v1] (bounds included, as
 * `tracekit report --begin/--end` takes them): per event or span name the
 * count and total duration (spans clipped to the range), per track
 * (thread, CPU, stream) and per CPU. */
var TK = typeof window !== 'undefined' ? (window.TK = window.TK || {}) : module.exports;
(function (TK) {
  'use strict';
  /* util.js's binary searches (a module of its own under node's tests) */
  var U = typeof window !== 'undefined' ? TK : require('./util.js');
  var lowerBound = U.lowerBound, upperBound = U.upperBound;
  /* Events and spans are kept apart: byName / byTrack / byCpu count the
   * events, spanNames / spanTracks the spans (with their durations, so a
   * CPU track's total is its busy time in the range). */
  TK.rangeStats = function (model, v0, v1) {
    var byName = new Map(), byTrack = new Map(), byCpu = new Map(), total = 0;
    var spanNames = new Map(), spanTracks = new Map(), spans = 0;
    function add(map, key, dur) {
      var e = map.get(key);
      if (!e) map.set(key, e = {key: key, count: 0, dur: 0});
      e.count++; e.dur += dur;
    }
    model.rows.forEach(function (row) {
      if (row.kind === 'counter') return;
      var lo, hi;
      if (row.kind === 'spans') { lo = lowerBound(row.end, v0); hi = upperBound(row.t, v1); }
      else { lo = lowerBound(row.t, v0); hi = upperBound(row.t, v1); }
      var names = model.strings;
      for (var i = lo; i < hi; i++) {
        var d = 0;
        if (row.dur) d = Math.min(row.end[i], v1) - Math.max(row.t[i], v0);
        if (d < 0) d = 0;
        if (row.dur) {
          add(spanNames, names[row.name[i]], d);
          add(spanTracks, row.track, d);
          spans++;
          continue;
        }
        add(byName, names[row.name[i]], d);
        add(byTrack, row.track, d);
        if (row.cpu && row.cpu[i]) add(byCpu, row.cpu[i] - 1, d);
        total++;
      }
    });
    function list(map) {
      var out = [];
      map.forEach(function (e) { out.push(e); });
      out.sort(function (a, b) { return b.count - a.count || b.dur - a.dur || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0); });
      return out;
    }
    return {byName: list(byName), byTrack: list(byTrack), byCpu: list(byCpu), total: total,
      spanNames: list(spanNames), spanTracks: list(spanTracks), spans: spans};
  };
})(TK);
