/* tracekit view: the page's data. tracekit writes a JSON description
 * (#tk-meta), the events' details (#tk-details, parsed on first use) and
 * binary columns as base64 (#tk-a<array>-<part>). This decodes them into
 * typed arrays: times become Float64Arrays of ns relative to the trace's
 * first event (t0, a BigInt), exact up to 104 days. */
var TK = typeof window !== 'undefined' ? (window.TK = window.TK || {}) : module.exports;
(function (TK) {
  'use strict';
  var ESC = 0xFFFFFFFF;
  var table = new Uint8Array(256);
  (function () {
    var a = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    for (var i = 0; i < 64; i++) table[a.charCodeAt(i)] = i;
  })();
  /* Base64 text into out at offset; returns the bytes written. */
  TK.decodeBase64Into = function (s, out, off) {
    var n = s.length;
    while (n > 0 && (s.charCodeAt(n - 1) === 61 || s.charCodeAt(n - 1) <= 32)) n--;
    var o = off, i = 0;
    for (; i + 4 <= n; i += 4) {
      var v = table[s.charCodeAt(i)] << 18 | table[s.charCodeAt(i + 1)] << 12 |
        table[s.charCodeAt(i + 2)] << 6 | table[s.charCodeAt(i + 3)];
      out[o++] = v >>> 16; out[o++] = (v >>> 8) & 255; out[o++] = v & 255;
    }
    var rest = n - i;
    if (rest >= 2) {
      var w = table[s.charCodeAt(i)] << 18 | table[s.charCodeAt(i + 1)] << 12 |
        (rest > 2 ? table[s.charCodeAt(i + 2)] << 6 : 0);
      out[o++] = w >>> 16;
      if (rest > 2) out[o++] = (w >>> 8) & 255;
    }
    return o - off;
  };
  var sizes = {u8: 1, u16: 2, u32: 4, f64: 8};
  var ctors = {u8: Uint8Array, u16: Uint16Array, u32: Uint32Array, f64: Float64Array};
  /* Array i of the page (getText(id) gives an element's text). */
  function loadArray(desc, i, getText) {
    var bytes = new Uint8Array(desc.n * sizes[desc.type]);
    var off = 0;
    for (var p = 0; p < desc.parts; p++) {
      var text = getText('tk-a' + i + '-' + p);
      if (typeof Uint8Array.fromBase64 === 'function' && desc.parts === 1) {
        /* the browser's own decoder, where it has one (much faster) */
        bytes = Uint8Array.fromBase64(text);
        if (bytes.length === desc.n * sizes[desc.type]) break;
        bytes = new Uint8Array(desc.n * sizes[desc.type]);
      }
      off += TK.decodeBase64Into(text, bytes, off);
    }
    return new ctors[desc.type](bytes.buffer, 0, desc.n);
  }
  /* u32 deltas with escapes + overflow doubles -> absolute times. */
  TK.decodeTimes = function (u32, ovf, first) {
    var n = u32.length, out = new Float64Array(n), cur = first, k = 0;
    for (var i = 0; i < n; i++) {
      var v = u32[i];
      cur += v === ESC ? ovf[k++] : v;
      out[i] = cur;
    }
    return out;
  };
  /* u32 values with escapes + overflow doubles -> doubles. */
  TK.decodeU32e = function (u32, ovf) {
    var n = u32.length, out = new Float64Array(n), k = 0;
    for (var i = 0; i < n; i++) { var v = u32[i]; out[i] = v === ESC ? ovf[k++] : v; }
    return out;
  };
  /* Rows must be sorted by start for the binary searches; an input in
   * file order may not be: sort every column by the same permutation. */
  TK.sortRowIfNeeded = function (row) {
    var t = row.t, sorted = true;
    for (var i = 1; i < t.length; i++) if (t[i] < t[i - 1]) { sorted = false; break; }
    if (sorted) return false;
    var idx = new Uint32Array(t.length);
    for (i = 0; i < idx.length; i++) idx[i] = i;
    idx.sort(function (a, b) { return t[a] - t[b] || a - b; });
    ['t', 'dur', 'end', 'name', 'arg', 'cpu', 'stack', 'weight', 'value'].forEach(function (k) {
      var a = row[k];
      if (!a) return;
      var b = new a.constructor(a.length);
      for (var j = 0; j < idx.length; j++) b[j] = a[idx[j]];
      row[k] = b;
    });
    row.lod = [];
    return true;
  };
  /* Builds the model from the page (or from a getText function in tests).
   * present(i), when given, says whether array i is in the document yet:
   * tracekit writes the small arrays (coarse levels of detail, short rows)
   * before the page's script and the rest after it, so the page draws
   * its first frame from the levels while the browser still reads the
   * rest. Rows whose columns are not there yet are `pending` (no entries,
   * n = 0) until TK.fillLoaded() (once their columns are in) or
   * TK.completeModel() fills them in. present(i, parts) must say whether
   * every part of the array is read to its end: it is asked again while
   * the page loads. */
  TK.loadModel = function (getText, present) {
    var meta = JSON.parse(getText('tk-meta'));
    var arrays = new Array(meta.arrays.length);
    var have = function (i) {
      return i <= -2 || (i >= 0 && (!present || !meta.arrays[i].parts || present(i, meta.arrays[i].parts)));
    };
    /* i < -1: a column of -2 - i zeros tracekit left out */
    var A = function (i) {
      if (i <= -2) return new Uint32Array(-2 - i);
      if (!arrays[i]) arrays[i] = loadArray(meta.arrays[i], i, getText);
      return arrays[i];
    };
    var model = {
      meta: meta, t0: BigInt(meta.t0), span: meta.span, epoch: meta.epoch,
      strings: meta.strings, groups: meta.groups, tracks: [], rows: [],
      stacks: {n: 0, parent: new Uint32Array(0), frame: new Uint32Array(0)},
      details: null, complete: false, pendingRows: 0,
      getDetails: function () {
        /* one JSON object a line, line 0 empty (parsed one by one when
         * shown); they come last in the page: none while it loads */
        if (!model.complete) return [];
        if (!model.details) model.details = (getText('tk-details') || '').split('\n');
        return model.details;
      },
      _A: A, _have: have, _rd: [],
      /* the decoded columns in their page encoding (time deltas, ...):
       * not needed once every row is filled in */
      _free: function () { arrays = null; model._rd = null; }
    };
    meta.tracks.forEach(function (td, ti) {
      var track = {id: ti, group: td.group, name: td.name, kind: td.kind, tid: td.tid, cpu: td.cpu,
        n: td.n, rows: []};
      td.rows.forEach(function (rd) {
        var row = {track: ti, depth: rd.depth, n: 0, kind: td.kind, index: model.rows.length,
          t: new Float64Array(0), lod: [], pending: true};
        row.end = row.t;
        loadLevels(model, row, rd, true);
        if (rowPresent(model, rd)) fillRow(model, row, rd);
        else model.pendingRows++;
        track.rows.push(row);
        model.rows.push(row);
        model._rd.push(rd);
      });
      model.tracks.push(track);
    });
    if (have(meta.stacks.parent) && have(meta.stacks.frame)) loadStacks(model);
    if (!model.pendingRows && model.stacks.n === meta.stacks.n) {
      model.complete = true;
      model._free();
    }
    return model;
  };
  /* While the page loads: fills in the pending rows among `rows` (all
   * when not given) whose columns the browser has read by now, and the
   * call stacks once they are in, so the data read so far can be picked
   * and searched. Returns how many rows it filled. */
  TK.fillLoaded = function (model, rows) {
    if (model.complete) return 0;
    var filled = 0;
    (rows || model.rows).forEach(function (row) {
      var rd = model._rd[row.index];
      if (!row.pending || !rowPresent(model, rd)) return;
      loadLevels(model, row, rd, false);
      fillRow(model, row, rd);
      model.pendingRows--;
      filled++;
    });
    var s = model.meta.stacks;
    if (model.stacks.n !== s.n && model._have(s.parent) && model._have(s.frame)) loadStacks(model);
    return filled;
  };
  /* Fills in what loadModel() left pending, now that the whole document
   * is there; returns the model. */
  TK.completeModel = function (model) {
    if (model.complete) return model;
    model.rows.forEach(function (row, i) {
      var rd = model._rd[i];
      loadLevels(model, row, rd, false);
      if (row.pending) fillRow(model, row, rd);
    });
    if (model.stacks.n !== model.meta.stacks.n) loadStacks(model);
    model.pendingRows = 0;
    model.complete = true;
    model._free();
    return model;
  };
  function loadStacks(model) {
    var A = model._A, s = model.meta.stacks;
    model.stacks = {n: s.n, parent: A(s.parent), frame: A(s.frame)};
  }
  function rowPresent(model, rd) {
    for (var k in rd.cols) if (!model._have(rd.cols[k])) return false;
    return true;
  }
  /* The row's levels of detail that are in the document (early: those
   * before the script; later: the rest, kept in order of shift). */
  function loadLevels(model, row, rd, early) {
    if (row.sorted) return; /* re-sorted rows dropped their levels */
    var A = model._A;
    (rd.lod || []).forEach(function (ld) {
      var lc = ld.cols, have = true;
      for (var k in lc) if (!model._have(lc[k])) have = false;
      if (!have || row.lod.some(function (l) { return l.shift === ld.shift; })) return;
      var lv = {shift: ld.shift, bucket: Math.pow(2, ld.shift), n: ld.n,
        t: TK.decodeTimes(A(lc.t), A(lc.tovf), rd.first), count: A(lc.count), name: A(lc.name)};
      lv.dur = TK.decodeU32e(A(lc.dur), A(lc.durovf));
      lv.end = new Float64Array(lv.n);
      for (var j = 0; j < lv.n; j++) lv.end[j] = lv.t[j] + lv.dur[j];
      row.lod.push(lv);
    });
    if (!early) row.lod.sort(function (a, b) { return a.shift - b.shift; });
  }
  function fillRow(model, row, rd) {
    var A = model._A, c = rd.cols;
    row.n = rd.n;
    row.t = TK.decodeTimes(A(c.t), A(c.tovf), rd.first);
    if (c.name !== undefined) { row.name = A(c.name); row.arg = A(c.arg); }
    if (c.value !== undefined) row.value = A(c.value);
    if (c.cpu !== undefined) row.cpu = A(c.cpu);
    row.end = row.t; /* instants: end = start */
    if (c.dur !== undefined) row.dur = TK.decodeU32e(A(c.dur), A(c.durovf));
    if (c.stack !== undefined) {
      row.stack = A(c.stack);
      row.weight = TK.decodeU32e(A(c.weight), A(c.wovf));
    }
    if (TK.sortRowIfNeeded(row)) row.sorted = true;
    if (row.dur) {
      row.end = new Float64Array(row.n);
      for (var j = 0; j < row.n; j++) row.end[j] = row.t[j] + row.dur[j];
    }
    row.pending = false;
  }
})(TK);
