// Unit tests of viewer/layout.js (node --test): group and track order,
// heights, collapsing, the track filter and hit testing.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const path = require('path');
const TK = require(path.join(__dirname, '..', '..', '..', 'viewer', 'layout.js'));

const groups = [
  { kind: 'cpu', input: 0, id: 0, name: 'CPUs' },
  { kind: 'process', input: 0, id: 200, name: 'process 200' },
  { kind: 'process', input: 0, id: 15, name: 'process 15' },
  { kind: 'counter', input: 0, id: -1, name: 'counters' },
];
const tracks = [
  { group: 0, name: 'CPU 1', kind: 'spans', tid: -1, cpu: 1, rows: [{}] },
  { group: 0, name: 'CPU 0', kind: 'spans', tid: -1, cpu: 0, rows: [{}, {}] },
  { group: 1, name: 'thread 201', kind: 'events', tid: 201, cpu: -1, rows: [{}] },
  { group: 1, name: 'thread 200', kind: 'events', tid: 200, cpu: -1, rows: [{}] },
  { group: 2, name: 'thread 15', kind: 'events', tid: 15, cpu: -1, rows: [{}] },
  { group: 3, name: 'x temp', kind: 'counter', tid: -1, cpu: -1, rows: [{}] },
];

test('groups: CPUs, then processes by pid, then counters', () => {
  assert.deepStrictEqual(TK.groupOrder(groups), [0, 2, 1, 3]);
});

test('tracks: by group, then tid / cpu', () => {
  assert.deepStrictEqual(TK.trackOrder(tracks), [1, 0, 3, 2, 4, 5]);
});

test('layout: group headers, one row per span depth, two for counters', () => {
  const l = TK.buildLayout(groups, tracks, { rowH: 10, groupH: 20 });
  const seq = l.items.map((it) => (it.type === 'group' ? 'g' + it.group : 't' + it.track));
  assert.deepStrictEqual(seq, ['g0', 't1', 't0', 'g2', 't4', 'g1', 't3', 't2', 'g3', 't5']);
  const byTrack = Object.fromEntries(l.items.filter((i) => i.type === 'track').map((i) => [i.track, i]));
  assert.strictEqual(byTrack[1].h, 20); // two depths
  assert.strictEqual(byTrack[5].h, 20); // counter
  assert.strictEqual(byTrack[4].y, 20 + 20 + 10 + 20);
  assert.strictEqual(l.height, 4 * 20 + 10 + 10 + 10 + 20 + 10 + 20);
});

test('collapsed groups keep only their header', () => {
  const l = TK.buildLayout(groups, tracks, { rowH: 10, groupH: 20, collapsed: new Set([1, 0]) });
  const seq = l.items.map((it) => (it.type === 'group' ? 'g' + it.group : 't' + it.track));
  assert.deepStrictEqual(seq, ['g0', 'g2', 't4', 'g1', 'g3', 't5']);
  assert.ok(l.items.find((i) => i.group === 1).collapsed);
});

test('the filter keeps matching tracks and whole matching groups', () => {
  let l = TK.buildLayout(groups, tracks, { filter: 'thread 20' });
  assert.deepStrictEqual(l.items.map((i) => i.track), [-1, 3, 2]);
  l = TK.buildLayout(groups, tracks, { filter: 'CPUS' });
  assert.deepStrictEqual(l.items.map((i) => i.track), [-1, 1, 0]);
  l = TK.buildLayout(groups, tracks, { filter: 'nothing like it' });
  assert.strictEqual(l.items.length, 0);
});

test('a track\'s spans sort next to its events', () => {
  const g = [{ kind: 'cpel', input: 0, id: 0, name: 'tracks' }];
  const t = ['cpu 1', 'cpu 0 states', 'cpu 1 states', 'cpu 0'].map((name) => ({
    group: 0, name, kind: name.endsWith('states') ? 'spans' : 'events', tid: -1, cpu: -1, rows: [{}] }));
  assert.deepStrictEqual(TK.trackOrder(t).map((i) => t[i].name), ['cpu 0 states', 'cpu 0', 'cpu 1 states', 'cpu 1']);
});

test('hit testing and visible items', () => {
  const l = TK.buildLayout(groups, tracks, { rowH: 10, groupH: 20 });
  assert.strictEqual(TK.hitItem(l, 0).type, 'group');
  assert.strictEqual(TK.hitItem(l, 25).track, 1);
  assert.strictEqual(TK.hitItem(l, l.height + 5), null);
  const vis = TK.visibleItems(l, 25, 80);
  assert.deepStrictEqual(vis.map((i) => i.track), [1, 0, -1, 4]);
});
