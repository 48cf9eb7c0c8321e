// Unit tests of viewer/data.js (node --test): the page's encodings as
// tracekit writes them (src/view/view_col.c, view_b64.c): base64, u32 time
// deltas with the 0xFFFFFFFF escape to doubles (negative deltas included),
// columns of zeros, and the sort of a row read in file order.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const path = require('path');
const TK = require(path.join(__dirname, '..', '..', '..', 'viewer', 'data.js'));

test('base64 decodes with and without padding', () => {
  for (const text of ['', 'f', 'fo', 'foo', 'foob', 'fooba', 'foobar', '\u0000\u00ff\u0080<>']) {
    const b64 = Buffer.from(text, 'latin1').toString('base64');
    const out = new Uint8Array(text.length);
    assert.strictEqual(TK.decodeBase64Into(b64, out, 0), text.length);
    assert.strictEqual(Buffer.from(out).toString('latin1'), text);
  }
});

test('time deltas: escapes take the next overflow double, which may be negative', () => {
  const E = 0xFFFFFFFF;
  const t = TK.decodeTimes(Uint32Array.from([0, 5, E, 1, E]), Float64Array.from([1e12, -3]), 100);
  assert.deepStrictEqual(Array.from(t), [100, 105, 105 + 1e12, 106 + 1e12, 103 + 1e12]);
  const d = TK.decodeU32e(Uint32Array.from([7, E, 0]), Float64Array.from([2 ** 40]));
  assert.deepStrictEqual(Array.from(d), [7, 2 ** 40, 0]);
});

test('a row out of time order is sorted, every column alike', () => {
  const row = { t: Float64Array.from([30, 10, 20]), name: Uint16Array.from([3, 1, 2]),
    arg: Uint32Array.from([33, 11, 22]), lod: [{}] };
  row.end = row.t;
  assert.strictEqual(TK.sortRowIfNeeded(row), true);
  assert.deepStrictEqual(Array.from(row.t), [10, 20, 30]);
  assert.deepStrictEqual(Array.from(row.name), [1, 2, 3]);
  assert.deepStrictEqual(Array.from(row.arg), [11, 22, 33]);
  assert.deepStrictEqual(row.lod, []); // levels no longer match: dropped
  assert.strictEqual(TK.sortRowIfNeeded(row), false);
});

test('a model from page elements, with a column of zeros left out', () => {
  const b64 = (ta) => Buffer.from(ta.buffer).toString('base64');
  const arrays = [Uint32Array.from([0, 10, 10]), new Float64Array(0), Uint16Array.from([1, 1, 2])];
  const meta = { version: 1, inputs: [], t0: '1000', span: 20, nEvents: 3, epoch: false,
    strings: ['', 'a', 'b'], groups: [{ kind: 'cpu', input: 0, id: 0, name: 'CPUs' }],
    tracks: [{ group: 0, name: 'CPU 0', kind: 'events', tid: -1, cpu: 0, n: 3,
      rows: [{ depth: 0, n: 3, first: 5, cols: { t: 0, tovf: 1, name: 2, arg: -5, cpu: -5 }, lod: [] }] }],
    stacks: { n: 0, parent: -2, frame: -2 },
    arrays: [{ type: 'u32', n: 3, parts: 1 }, { type: 'f64', n: 0, parts: 0 }, { type: 'u16', n: 3, parts: 1 }] };
  const el = { 'tk-meta': JSON.stringify(meta), 'tk-details': '\n{"f":"a\\nb"}' };
  arrays.forEach((a, i) => { if (a.length) el['tk-a' + i + '-0'] = b64(a); });
  const m = TK.loadModel((id) => el[id] || '');
  const row = m.tracks[0].rows[0];
  assert.deepStrictEqual(Array.from(row.t), [5, 15, 25]);
  assert.deepStrictEqual(Array.from(row.name), [1, 1, 2]);
  assert.deepStrictEqual(Array.from(row.arg), [0, 0, 0]);
  assert.strictEqual(m.t0, 1000n);
  // details: one JSON object a line, line 0 empty
  assert.deepStrictEqual(m.getDetails(), ['', '{"f":"a\\nb"}']);
  assert.deepStrictEqual(JSON.parse(m.getDetails()[1]), { f: 'a\nb' });
});

test('a model read in two steps: the rows written after the script are pending until completeModel()', () => {
  const b64 = (ta) => Buffer.from(ta.buffer).toString('base64');
  // array 0-2: a short row (early); 3-5: a long row (late); 6-9: its level (early)
  const arrays = [Uint32Array.from([0, 10]), new Float64Array(0), Uint16Array.from([1, 2]),
    Uint32Array.from([0, 1, 1, 1]), new Float64Array(0), Uint16Array.from([1, 1, 1, 1]),
    Uint32Array.from([0]), Uint32Array.from([3]), Uint32Array.from([4]), Uint16Array.from([1])];
  const types = ['u32', 'f64', 'u16', 'u32', 'f64', 'u16', 'u32', 'u32', 'u32', 'u16'];
  const meta = { version: 1, inputs: [], t0: '0', span: 13, nEvents: 6, epoch: false,
    strings: ['', 'a', 'b'], groups: [{ kind: 'cpu', input: 0, id: 0, name: 'CPUs' }],
    tracks: [{ group: 0, name: 'short', kind: 'events', tid: -1, cpu: 0, n: 2,
      rows: [{ depth: 0, n: 2, first: 0, cols: { t: 0, tovf: 1, name: 2, arg: -4 }, lod: [] }] },
    { group: 0, name: 'long', kind: 'events', tid: -1, cpu: 1, n: 4,
      rows: [{ depth: 0, n: 4, first: 10, cols: { t: 3, tovf: 4, name: 5, arg: -6 },
        lod: [{ shift: 10, n: 1, cols: { t: 6, tovf: 1, dur: 7, durovf: 1, count: 8, name: 9 } }] }] }],
    stacks: { n: 0, parent: -2, frame: -2 },
    arrays: arrays.map((a, i) => ({ type: types[i], n: a.length, parts: a.length ? 1 : 0 })) };
  const el = { 'tk-meta': JSON.stringify(meta) };
  arrays.forEach((a, i) => { if (a.length) el['tk-a' + i + '-0'] = b64(a); });
  const late = new Set([3, 5]);
  const m = TK.loadModel((id) => el[id] || '', (i) => !late.has(i));
  assert.strictEqual(m.complete, false);
  const [s, l] = [m.tracks[0].rows[0], m.tracks[1].rows[0]];
  assert.strictEqual(s.pending, false);
  assert.deepStrictEqual(Array.from(s.t), [0, 10]);
  assert.strictEqual(l.pending, true);
  assert.strictEqual(l.n, 0);
  assert.strictEqual(l.lod.length, 1); // its level is there already
  assert.deepStrictEqual(Array.from(l.lod[0].end), [13]);
  TK.completeModel(m);
  assert.strictEqual(m.complete, true);
  assert.strictEqual(l.pending, false);
  assert.deepStrictEqual(Array.from(l.t), [10, 11, 12, 13]);
  assert.strictEqual(l.lod.length, 1); // not loaded twice
});

test('while the page loads, fillLoaded() fills the pending rows whose columns are read, and no others', () => {
  const b64 = (ta) => Buffer.from(ta.buffer).toString('base64');
  // two late rows: arrays 3-5 (track "a") and 6-8 (track "b")
  const arrays = [Uint32Array.from([0]), new Float64Array(0), Uint16Array.from([1]),
    Uint32Array.from([0, 1, 1]), new Float64Array(0), Uint16Array.from([1, 2, 1]),
    Uint32Array.from([0, 2]), new Float64Array(0), Uint16Array.from([2, 2])];
  const types = ['u32', 'f64', 'u16', 'u32', 'f64', 'u16', 'u32', 'f64', 'u16'];
  const row = (t, first) => ({ depth: 0, n: arrays[t].length, first, cols: { t, tovf: t + 1, name: t + 2, arg: -2 - arrays[t].length }, lod: [] });
  const meta = { version: 1, inputs: [], t0: '0', span: 20, nEvents: 6, epoch: false,
    strings: ['', 'x', 'y'], groups: [{ kind: 'cpu', input: 0, id: 0, name: 'CPUs' }],
    tracks: [{ group: 0, name: 'early', kind: 'events', tid: -1, cpu: 0, n: 1, rows: [row(0, 0)] },
      { group: 0, name: 'a', kind: 'events', tid: -1, cpu: 1, n: 3, rows: [row(3, 10)] },
      { group: 0, name: 'b', kind: 'events', tid: -1, cpu: 2, n: 2, rows: [row(6, 18)] }],
    stacks: { n: 0, parent: -2, frame: -2 },
    arrays: arrays.map((a, i) => ({ type: types[i], n: a.length, parts: a.length ? 1 : 0 })) };
  const el = { 'tk-meta': JSON.stringify(meta), 'tk-details': '\n{"f":1}' };
  arrays.forEach((a, i) => { if (a.length) el['tk-a' + i + '-0'] = b64(a); });
  const read = new Set([0, 2]); // what the browser has read to its end
  const m = TK.loadModel((id) => el[id] || '', (i) => read.has(i));
  const [a, b] = [m.tracks[1].rows[0], m.tracks[2].rows[0]];
  assert.strictEqual(TK.fillLoaded(m), 0);
  read.add(3); read.add(5); // row a: its times and names, not b's
  assert.strictEqual(TK.fillLoaded(m, [b]), 0); // only the rows asked for
  assert.strictEqual(TK.fillLoaded(m), 1);
  assert.strictEqual(a.pending, false);
  assert.deepStrictEqual(Array.from(a.t), [10, 11, 12]);
  assert.deepStrictEqual(Array.from(a.name), [1, 2, 1]);
  assert.strictEqual(b.pending, true);
  assert.strictEqual(m.complete, false);
  assert.deepStrictEqual(m.getDetails(), []); // the details come last: none yet, nothing kept
  TK.completeModel(m);
  assert.deepStrictEqual(Array.from(a.t), [10, 11, 12]); // not filled twice
  assert.deepStrictEqual(Array.from(b.t), [18, 20]);
  assert.deepStrictEqual(m.getDetails(), ['', '{"f":1}']);
  assert.strictEqual(TK.fillLoaded(m), 0);
});
