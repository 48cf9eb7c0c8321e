/* tracekit view: small helpers shared by the other scripts (time text,
 * binary search, colours, HTML escaping). Every viewer script adds to one
 * namespace, TK: window.TK in the page, module.exports under node's tests. */
var TK = typeof window !== 'undefined' ? (window.TK = window.TK || {}) : module.exports;
(function (TK) {
  'use strict';
  /* First index i in [lo, hi) with a[i] >= x (a sorted ascending). */
  TK.lowerBound = function (a, x, lo, hi) {
    lo = lo || 0; hi = hi === undefined ? a.length : hi;
    while (lo < hi) { var m = (lo + hi) >>> 1; if (a[m] < x) lo = m + 1; else hi = m; }
    return lo;
  };
  /* First index i in [lo, hi) with a[i] > x. */
  TK.upperBound = function (a, x, lo, hi) {
    lo = lo || 0; hi = hi === undefined ? a.length : hi;
    while (lo < hi) { var m = (lo + hi) >>> 1; if (a[m] <= x) lo = m + 1; else hi = m; }
    return lo;
  };
  TK.escapeHtml = function (s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c];
    });
  };
  /* A stable colour per name (hue from a string hash). */
  var colourCache = new Map();
  TK.colour = function (name, light) {
    var key = name + (light ? '\u0001' : '');
    var c = colourCache.get(key);
    if (c) return c;
    var h = 2166136261;
    for (var i = 0; i < name.length; i++) { h ^= name.charCodeAt(i); h = Math.imul(h, 16777619); }
    var hue = ((h >>> 0) % 360);
    c = 'hsl(' + hue + ',' + (light ? '45%,80%)' : '55%,55%)');
    colourCache.set(key, c);
    return c;
  };
  /* A duration in ns as text with a unit. */
  TK.fmtDur = function (ns) {
    var a = Math.abs(ns);
    if (a < 1e3) return ns.toFixed(0) + ' ns';
    if (a < 1e6) return (ns / 1e3).toFixed(a < 1e4 ? 3 : 1) + ' us';
    if (a < 1e9) return (ns / 1e6).toFixed(a < 1e7 ? 3 : 1) + ' ms';
    return (ns / 1e9).toFixed(a < 1e10 ? 6 : 3) + ' s';
  };
  function pad(n, w) { var s = String(n); while (s.length < w) s = '0' + s; return s; }
  /* The absolute time of a relative one: t0 (BigInt ns) + rel (ns). */
  TK.absNs = function (t0, rel) { return t0 + BigInt(Math.round(rel)); };
  /* Time text. mode 'rel': seconds from the trace's first event;
   * 'abs': the trace's clock, as a time of day (UTC) when it counts from
   * the epoch, else seconds.nanoseconds as perf prints them. */
  TK.fmtTime = function (t0, rel, mode, epoch) {
    if (mode === 'rel') {
      var neg = rel < 0, r = Math.round(Math.abs(rel));
      var s = Math.floor(r / 1e9), ns = r - s * 1e9;
      return (neg ? '-' : '') + s + '.' + pad(ns, 9);
    }
    var abs = TK.absNs(t0, rel);
    var sec = abs / 1000000000n, nsec = abs % 1000000000n;
    if (epoch) {
      var d = new Date(Number(sec) * 1000);
      return d.toISOString().slice(0, 10) + ' ' + d.toISOString().slice(11, 19) + '.' +
        pad(nsec.toString(), 9);
    }
    return sec.toString() + '.' + pad(nsec.toString(), 9);
  };
  /* A ruler label: fmtTime with as many decimals as a tick step of
   * `step` ns needs (so neighbouring labels do not run into each other). */
  TK.fmtTick = function (t0, rel, mode, epoch, step) {
    var full = TK.fmtTime(t0, rel, mode, epoch);
    var dec = Math.max(0, Math.min(9, Math.ceil(9 - Math.log10(Math.max(step, 1)) - 1e-9)));
    var dot = full.lastIndexOf('.');
    if (dot < 0) return full;
    return dec ? full.slice(0, dot + 1 + dec) : full.slice(0, dot);
  };
  /* Parses a number of ns (BigInt) from decimal text. */
  TK.parseNs = function (s) { return BigInt(s); };
})(TK);
