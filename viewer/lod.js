/* tracekit view: level-of-detail choice, so a frame never draws more
 * primitives than pixels. A row (entries sorted by start; in a row entries
 * do not overlap, so their ends are sorted too) is drawn one of three ways
 * for a visible window [v0, v1] over `width` pixels:
 *   raw    - its entries, when there are few enough;
 *   lod    - a level tracekit pre-aggregated (buckets of 2^shift ns, each a
 *            summary entry: first start, last end, count, longest name),
 *            the finest whose buckets are at least a pixel wide;
 *   pixels - one binary search per pixel over the raw entries, where no
 *            stored level fits (tracekit keeps only levels much smaller
 *            than the row). */
var TK = typeof window !== 'undefined' ? (window.TK = window.TK || {}) : module.exports;
(function (TK) {
  'use strict';
  /* Its own binary searches (not util.js's): the per-pixel loops call
   * them on Float64Arrays only, and a call site that sees one array type
   * stays fast. */
  function lowerBound(a, x, lo, hi) {
    while (lo < hi) { var m = (lo + hi) >>> 1; if (a[m] < x) lo = m + 1; else hi = m; }
    return lo;
  }
  function upperBound(a, x, lo, hi) {
    while (lo < hi) { var m = (lo + hi) >>> 1; if (a[m] <= x) lo = m + 1; else hi = m; }
    return lo;
  }
  /* Entries of (t, end) that overlap [v0, v1]: [lo, hi). */
  TK.visibleRange = function (t, end, v0, v1) {
    var lo = lowerBound(end, v0, 0, end.length);
    var hi = upperBound(t, v1, lo, t.length);
    return {lo: lo, hi: hi};
  };
  /* How to draw `row` for the window; see above. */
  TK.chooseLod = function (row, v0, v1, width) {
    if (row.pending) return chooseEarly(row, v0, v1, width);
    var r = TK.visibleRange(row.t, row.end, v0, v1);
    var budget = Math.max(1, width) * 2;
    if (r.hi - r.lo <= budget) return {mode: 'raw', lo: r.lo, hi: r.hi, level: null};
    var npp = (v1 - v0) / Math.max(1, width);
    var best = null;
    for (var i = 0; i < (row.lod ? row.lod.length : 0); i++) {
      var lv = row.lod[i];
      if (lv.bucket >= npp && (!best || lv.bucket < best.bucket)) best = lv;
    }
    if (best && best.bucket <= npp * 4) {
      var q = TK.visibleRange(best.t, best.end, v0, v1);
      if (q.hi - q.lo <= budget * 2) return {mode: 'lod', lo: q.lo, hi: q.hi, level: best};
    }
    return {mode: 'pixels', lo: r.lo, hi: r.hi, level: null};
  };
  /* A row whose entries are not read yet (the first frames): the finest
   * level there is with buckets at least a pixel wide, else the coarsest
   * (the page holds only levels of a few thousand entries that early). */
  function chooseEarly(row, v0, v1, width) {
    var npp = (v1 - v0) / Math.max(1, width), best = null;
    row.lod.forEach(function (lv) {
      if (!best || (lv.bucket >= npp ? best.bucket < npp || lv.bucket < best.bucket : lv.bucket > best.bucket)) best = lv;
    });
    if (!best) return {mode: 'none', lo: 0, hi: 0, level: null};
    var q = TK.visibleRange(best.t, best.end, v0, v1);
    return {mode: 'lod', lo: q.lo, hi: q.hi, level: best};
  }
  /* Per-pixel summary of raw entries: count[p] = entries overlapping pixel p,
   * first[p] = the first of them (-1 when none). */
  TK.pixelBins = function (t, end, v0, v1, width) {
    var count = new Uint32Array(width), first = new Int32Array(width);
    var npp = (v1 - v0) / width, n = t.length;
    var lo = lowerBound(end, v0, 0, n);
    for (var p = 0; p < width; p++) {
      var a = v0 + p * npp, b = a + npp;
      var i = lowerBound(end, a, lo, n);
      var j = lowerBound(t, b, i, n);
      count[p] = j - i;
      first[p] = j > i ? i : -1;
      lo = i;
    }
    return {count: count, first: first};
  };
  /* Merges entries [lo, hi) of (t, end) into runs at least one pixel apart:
   * calls draw(x0, x1, index, merged) with pixel extents. Keeps a window of
   * raw entries from costing more than one rectangle per pixel. */
  TK.mergeRuns = function (t, end, lo, hi, v0, v1, width, draw) {
    var k = width / (v1 - v0);
    var cx0 = -1, cx1 = -1, ci = -1, merged = 0;
    for (var i = lo; i < hi; i++) {
      var x0 = (t[i] - v0) * k, x1 = (end[i] - v0) * k;
      if (x0 < 0) x0 = 0;
      if (x1 > width) x1 = width;
      if (ci >= 0 && x0 < cx1 + 1 && x1 - x0 < 1 && cx1 - cx0 < 1) {
        if (x1 > cx1) cx1 = x1;
        merged++;
        continue;
      }
      if (ci >= 0) draw(cx0, cx1, ci, merged);
      cx0 = x0; cx1 = x1; ci = i; merged = 1;
    }
    if (ci >= 0) draw(cx0, cx1, ci, merged);
  };
})(TK);
