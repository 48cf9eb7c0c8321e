// Unit tests of viewer/lod.js (node --test): which representation a row is
// drawn with for a window, and the per-pixel and run-merging helpers.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const path = require('path');
const TK = require(path.join(__dirname, '..', '..', '..', 'viewer', 'lod.js'));

function instants(n, step) {
  const t = new Float64Array(n);
  for (let i = 0; i < n; i++) t[i] = i * step;
  return { t, end: t, n, lod: [] };
}

test('visibleRange finds the entries overlapping the window, bounds included', () => {
  const r = instants(10, 10); // 0, 10, ..., 90
  assert.deepStrictEqual(TK.visibleRange(r.t, r.end, 20, 50), { lo: 2, hi: 6 });
  assert.deepStrictEqual(TK.visibleRange(r.t, r.end, 21, 29), { lo: 3, hi: 3 });
  assert.deepStrictEqual(TK.visibleRange(r.t, r.end, -100, -1), { lo: 0, hi: 0 });
  // spans: an entry starting before the window but ending in it is visible
  const t = Float64Array.from([0, 100, 200]), end = Float64Array.from([50, 150, 250]);
  assert.deepStrictEqual(TK.visibleRange(t, end, 120, 130), { lo: 1, hi: 2 });
});

test('few entries in view are drawn raw', () => {
  const r = instants(1000, 1);
  const c = TK.chooseLod(r, 0, 999, 1000);
  assert.strictEqual(c.mode, 'raw');
  assert.strictEqual(c.hi - c.lo, 1000);
});

test('many entries: the finest stored level with buckets >= a pixel', () => {
  const r = instants(100000, 1); // 1 ns apart
  // levels of 2^10 and 2^12 ns buckets
  for (const shift of [10, 12]) {
    const b = Math.pow(2, shift), n = Math.ceil(100000 / b);
    const t = new Float64Array(n), end = new Float64Array(n);
    for (let i = 0; i < n; i++) { t[i] = i * b; end[i] = Math.min(99999, i * b + b - 1); }
    r.lod.push({ shift, bucket: b, n, t, end, count: new Uint32Array(n), name: new Uint32Array(n) });
  }
  // 100 px over 100000 ns: 1000 ns per pixel -> the 1024 ns level
  let c = TK.chooseLod(r, 0, 100000, 100);
  assert.strictEqual(c.mode, 'lod');
  assert.strictEqual(c.level.shift, 10);
  // 10 px: 10000 ns per pixel: both levels are finer than a pixel
  c = TK.chooseLod(r, 0, 100000, 10);
  assert.notStrictEqual(c.mode, 'raw');
  // 3000 px wide: 33 ns per pixel, too many raw entries, no level fine enough -> pixels
  c = TK.chooseLod(r, 0, 100000, 3000);
  assert.strictEqual(c.mode, 'pixels');
});

test('pixelBins counts the entries of each pixel', () => {
  const r = instants(100, 1); // 0..99
  const bins = TK.pixelBins(r.t, r.end, 0, 100, 10);
  assert.deepStrictEqual(Array.from(bins.count), [10, 10, 10, 10, 10, 10, 10, 10, 10, 10]);
  assert.strictEqual(bins.first[3], 30);
  const sparse = TK.pixelBins(Float64Array.from([5]), Float64Array.from([5]), 0, 100, 10);
  assert.deepStrictEqual(Array.from(sparse.first), [0, -1, -1, -1, -1, -1, -1, -1, -1, -1]);
});

test('mergeRuns draws at most one run per pixel for dense entries', () => {
  const r = instants(10000, 1);
  let runs = 0, total = 0;
  TK.mergeRuns(r.t, r.end, 0, r.n, 0, 10000, 100, (x0, x1, i, merged) => { runs++; total += merged; });
  assert.ok(runs <= 101, 'runs ' + runs);
  assert.strictEqual(total, 10000);
  // wide entries are drawn one by one
  const t = Float64Array.from([0, 500]), end = Float64Array.from([400, 900]);
  const seen = [];
  TK.mergeRuns(t, end, 0, 2, 0, 1000, 100, (x0, x1, i) => seen.push([x0, x1, i]));
  assert.deepStrictEqual(seen, [[0, 40, 0], [50, 90, 1]]);
});

test('a row not read yet is drawn from its levels: the finest at least a pixel wide, else the coarsest', () => {
  const lv = (shift, n) => {
    const t = new Float64Array(n);
    for (let i = 0; i < n; i++) t[i] = i * 2 ** shift;
    return { shift, bucket: 2 ** shift, n, t, end: t };
  };
  const row = { pending: true, n: 0, t: new Float64Array(0), end: new Float64Array(0),
    lod: [lv(10, 4096), lv(12, 1024), lv(14, 256)] };
  // 2^22 ns over 1000 px: 4194 ns a pixel -> the 2^14 level (the 2^12 is finer)
  let c = TK.chooseLod(row, 0, 2 ** 22, 1000);
  assert.strictEqual(c.mode, 'lod');
  assert.strictEqual(c.level.shift, 14);
  // 1000 ns a pixel: 2^10 is the finest at least a pixel wide
  c = TK.chooseLod(row, 0, 1e6, 1000);
  assert.strictEqual(c.level.shift, 10);
  assert.ok(c.hi - c.lo > 0 && c.hi - c.lo <= 1000);
  // 10 ns a pixel: every level is wider than a pixel -> the finest (2^10)
  c = TK.chooseLod(row, 0, 1e4, 1000);
  assert.strictEqual(c.level.shift, 10);
  // 2^30 ns a pixel: all are finer than a pixel -> the coarsest
  c = TK.chooseLod(row, 0, 2 ** 40, 1000);
  assert.strictEqual(c.level.shift, 14);
  // no levels at all: nothing to draw yet
  assert.strictEqual(TK.chooseLod({ pending: true, lod: [], t: new Float64Array(0), end: new Float64Array(0) }, 0, 10, 10).mode, 'none');
});
