/* tracekit view: flame graph and icicle of the samples in a time range,
 * weighted by their period, and the per-symbol table beside it. Stacks are
 * a trie tracekit wrote (node i: parent[i-1], frame[i-1]; 0 is the root),
 * and a parent always has a smaller id than its children, so totals are
 * one backward pass. */
var TK = typeof window !== 'undefined' ? (window.TK = window.TK || {}) : module.exports;
(function (TK) {
  'use strict';
  /* util.js's binary searches (a module of its own under node's tests) */
  var U = typeof window !== 'undefined' ? TK : require('./util.js');
  var lowerBound = U.lowerBound, upperBound = U.upperBound;
  /* Self weight per stack node of the samples with v0 <= t <= v1 in rows
   * (those with a stack column); keep(row) may leave rows out. */
  TK.sampleWeights = function (rows, nStacks, v0, v1, keep) {
    var self = new Float64Array(nStacks + 1), samples = 0, weight = 0;
    rows.forEach(function (row) {
      if (!row.stack || (keep && !keep(row))) return;
      var lo = lowerBound(row.t, v0), hi = upperBound(row.t, v1);
      for (var i = lo; i < hi; i++) {
        self[row.stack[i]] += row.weight[i];
        weight += row.weight[i];
        samples++;
      }
    });
    return {self: self, samples: samples, weight: weight};
  };
  /* The tree: total per node and children lists (heaviest first). */
  TK.buildFlame = function (stacks, self) {
    var n = stacks.n, total = Float64Array.from(self);
    for (var id = n; id >= 1; id--) if (total[id]) total[stacks.parent[id - 1]] += total[id];
    var children = new Array(n + 1);
    for (id = 1; id <= n; id++) {
      if (!total[id]) continue;
      var p = stacks.parent[id - 1];
      (children[p] || (children[p] = [])).push(id);
    }
    children.forEach(function (c) { if (c) c.sort(function (a, b) { return total[b] - total[a] || a - b; }); });
    return {total: total, self: self, children: children, stacks: stacks};
  };
  TK.frameName = function (tree, strings, id) {
    return id === 0 ? 'all' : strings[tree.stacks.frame[id - 1]];
  };
  /* Rectangles: [{id, depth, x, w}] with x, w as fractions of the focused
   * node's total; the focus's ancestors span the full width above it. */
  TK.flameRects = function (tree, focus, minFrac) {
    var out = [], total = tree.total;
    var chain = [];
    for (var a = focus; a !== 0; a = tree.stacks.parent[a - 1]) chain.unshift(a);
    chain.unshift(0);
    chain.forEach(function (id, d) { out.push({id: id, depth: d, x: 0, w: 1}); });
    var base = total[focus] || 1;
    (function walk(id, depth, x) {
      var c = tree.children[id];
      if (!c) return;
      for (var i = 0; i < c.length; i++) {
        var w = total[c[i]] / base;
        if (w < minFrac) break;
        out.push({id: c[i], depth: depth, x: x, w: w});
        walk(c[i], depth + 1, x);
        x += w;
      }
    })(focus, chain.length, 0);
    return out;
  };
  /* Per symbol: self weight (the leaf frames) and total (weight of samples
   * with the symbol anywhere on their stack, counted once per sample). */
  TK.symbolTable = function (tree, strings) {
    var selfBy = new Map(), totalBy = new Map(), onStack = new Map();
    var total = tree.total;
    (function walk(id) {
      var name = id === 0 ? null : strings[tree.stacks.frame[id - 1]];
      if (name !== null) {
        if (tree.self[id]) selfBy.set(name, (selfBy.get(name) || 0) + tree.self[id]);
        var k = onStack.get(name) || 0;
        if (!k) totalBy.set(name, (totalBy.get(name) || 0) + total[id]);
        onStack.set(name, k + 1);
      }
      var c = tree.children[id];
      if (c) for (var i = 0; i < c.length; i++) walk(c[i]);
      if (name !== null) onStack.set(name, onStack.get(name) - 1);
    })(0);
    var rows = [];
    totalBy.forEach(function (t, name) { rows.push({name: name, self: selfBy.get(name) || 0, total: t}); });
    rows.sort(function (a, b) { return b.self - a.self || b.total - a.total || (a.name < b.name ? -1 : 1); });
    return rows;
  };
  /* Weight of the samples whose stack holds a frame matching re. */
  TK.flameSearch = function (tree, strings, re) {
    var w = 0;
    (function walk(id, hit) {
      var h = hit || (id !== 0 && re.test(strings[tree.stacks.frame[id - 1]]));
      if (h) { w += tree.total[id]; return; }
      var c = tree.children[id];
      if (c) for (var i = 0; i < c.length; i++) walk(c[i], false);
    })(0, false);
    return w;
  };
})(TK);
