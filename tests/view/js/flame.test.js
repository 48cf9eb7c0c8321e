// Unit tests of viewer/flame.js and viewer/stats.js (node --test): sample
// weights in a range, the flame tree, its rectangles, the symbol table,
// and range statistics.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const path = require('path');
const TK = require(path.join(__dirname, '..', '..', '..', 'viewer', 'flame.js'));
const S = require(path.join(__dirname, '..', '..', '..', 'viewer', 'stats.js'));

// frames: 1 main, 2 a, 3 b, 4 a (recursion: main > a > b > a)
const strings = ['', 'main', 'a', 'b'];
// nodes: 1 main, 2 main>a, 3 main>a>b, 4 main>a>b>a, 5 main>b
const stacks = { n: 5, parent: Uint32Array.from([0, 1, 2, 3, 1]), frame: Uint32Array.from([1, 2, 3, 2, 3]) };
const row = { kind: 'events', t: Float64Array.from([0, 10, 20, 30, 40]), end: null,
  stack: Uint32Array.from([2, 3, 4, 5, 4]), weight: Float64Array.from([1, 2, 4, 8, 16]),
  name: Uint32Array.from([1, 1, 1, 1, 1]), track: 0 };
row.end = row.t;

test('sampleWeights takes the samples within the range, bounds included', () => {
  const w = TK.sampleWeights([row], stacks.n, 10, 30);
  assert.strictEqual(w.samples, 3);
  assert.strictEqual(w.weight, 14);
  assert.deepStrictEqual(Array.from(w.self), [0, 0, 0, 2, 4, 8]);
});

test('totals add up the tree; rectangles tile their parent', () => {
  const w = TK.sampleWeights([row], stacks.n, 0, 40);
  const tree = TK.buildFlame(stacks, w.self);
  assert.strictEqual(tree.total[0], 31);
  assert.strictEqual(tree.total[1], 31);
  assert.strictEqual(tree.total[2], 1 + 2 + 4 + 16);
  assert.deepStrictEqual(tree.children[1], [2, 5]);
  const rects = TK.flameRects(tree, 0, 0);
  const main = rects.find((r) => r.id === 1);
  assert.deepStrictEqual([main.depth, main.x, main.w], [1, 0, 1]);
  const b = rects.find((r) => r.id === 5);
  assert.ok(Math.abs(b.x - 23 / 31) < 1e-12 && Math.abs(b.w - 8 / 31) < 1e-12);
  // zoomed on main>a: its ancestors full width, it spans the width
  const z = TK.flameRects(tree, 2, 0);
  assert.deepStrictEqual(z.slice(0, 3).map((r) => [r.id, r.depth, r.w]), [[0, 0, 1], [1, 1, 1], [2, 2, 1]]);
  assert.ok(Math.abs(z.find((r) => r.id === 3).w - 22 / 23) < 1e-12);
});

test('symbol table: self at the leaf, total once per sample despite recursion', () => {
  const w = TK.sampleWeights([row], stacks.n, 0, 40);
  const tree = TK.buildFlame(stacks, w.self);
  const rows = Object.fromEntries(TK.symbolTable(tree, strings).map((r) => [r.name, r]));
  assert.deepStrictEqual(rows.a, { name: 'a', self: 1 + 4 + 16, total: 23 });
  assert.deepStrictEqual(rows.b, { name: 'b', self: 2 + 8, total: 2 + 4 + 16 + 8 });
  assert.deepStrictEqual(rows.main, { name: 'main', self: 0, total: 31 });
  assert.strictEqual(TK.flameSearch(tree, strings, /^b$/), 2 + 4 + 16 + 8);
});

test('rangeStats: counts per name, spans clipped to the range', () => {
  const names = ['', 'x', 'run'];
  const spans = { kind: 'spans', track: 1, t: Float64Array.from([0, 100]), dur: Float64Array.from([50, 50]),
    end: Float64Array.from([50, 150]), name: Uint32Array.from([2, 2]) };
  const ev = { kind: 'events', track: 0, t: Float64Array.from([10, 20, 30]), name: Uint32Array.from([1, 1, 1]),
    cpu: Uint16Array.from([1, 2, 0]) };
  ev.end = ev.t;
  const s = S.rangeStats({ rows: [spans, ev], strings: names }, 20, 120);
  const by = Object.fromEntries(s.byName.map((e) => [e.key, e]));
  const sp = Object.fromEntries(s.spanNames.map((e) => [e.key, e]));
  assert.deepStrictEqual([by.x.count, sp.run.count, sp.run.dur], [2, 2, 30 + 20]);
  assert.strictEqual(by.run, undefined);
  assert.deepStrictEqual(s.byCpu.map((e) => [e.key, e.count]), [[1, 1]]);
  assert.deepStrictEqual(s.spanTracks.map((e) => [e.key, e.count, e.dur]), [[1, 2, 50]]);
  assert.deepStrictEqual([s.total, s.spans], [2, 2]);
});
