/* tracekit view: draws the timeline canvas (ruler, group headers, track
 * labels, spans as bars, events as ticks, counters as lines, the
 * selection, search matches and the chosen event). Each row is drawn at
 * the level of detail lod.js chooses, so a frame costs about one
 * rectangle per pixel per visible row whatever the trace's size. */
var TK = typeof window !== 'undefined' ? (window.TK = window.TK || {}) : module.exports;
(function (TK) {
  'use strict';
  TK.LABEL_W = 230;
  TK.RULER_H = 28;
  /* A tick step (ns) of 1, 2 or 5 x 10^k giving ticks about px apart. */
  TK.tickStep = function (nsPerPx, px) {
    var raw = nsPerPx * px, p = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1e-3))));
    var m = raw / p;
    return Math.max(1, (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p); /* whole ns */
  };
  function drawRuler(ctx, st, W) {
    var x0 = TK.LABEL_W, w = W - x0, v0 = st.v0, v1 = st.v1;
    ctx.fillStyle = '#f0f3f6';
    ctx.fillRect(0, 0, W, TK.RULER_H);
    ctx.fillStyle = '#333';
    ctx.font = '11px system-ui, sans-serif';
    ctx.fillText(st.mode === 'rel' ? 'time (s from start)' : (st.model.epoch ? 'time (UTC)' : 'time (s, trace clock)'), 6, 12);
    var step = TK.tickStep((v1 - v0) / w, 110);
    var first = Math.ceil(v0 / step) * step;
    ctx.strokeStyle = '#999';
    ctx.beginPath();
    st.ruler = []; /* the labels drawn, for the tests */
    for (var t = first; t <= v1; t += step) {
      var x = x0 + (t - v0) / (v1 - v0) * w;
      var label = TK.fmtTick(st.model.t0, t, st.mode, st.model.epoch, step).replace(/^.* /, '');
      ctx.moveTo(x + 0.5, TK.RULER_H - 8); ctx.lineTo(x + 0.5, TK.RULER_H);
      ctx.fillText(label, x + 3, 12);
      st.ruler.push({t: t, x: x, text: label});
    }
    ctx.stroke();
    ctx.fillStyle = '#555';
    ctx.fillText('window ' + TK.fmtDur(v1 - v0), 6, TK.RULER_H - 4);
  }
  /* A row's rectangles batched by colour: one fill per colour rather than
   * a fillStyle change per rectangle (setting the style string was the
   * largest cost of a whole-trace frame). A row's rectangles do not
   * overlap, so the order of the colours does not show. */
  function fillBatched(ctx, byColour) {
    byColour.forEach(function (a, colour) {
      ctx.fillStyle = colour;
      ctx.beginPath();
      for (var i = 0; i < a.length; i += 4) ctx.rect(a[i], a[i + 1], a[i + 2], a[i + 3]);
      ctx.fill();
    });
  }
  /* Returns the colour's array: its last 4 numbers are this rectangle. */
  function addRect(byColour, colour, x, y, w, h) {
    var a = byColour.get(colour);
    if (!a) { a = []; byColour.set(colour, a); }
    a.push(x, y, w, h);
    return a;
  }
  function drawRow(ctx, st, row, y, h, x0, w) {
    var model = st.model, v0 = st.v0, v1 = st.v1, names = model.strings;
    if (row.kind === 'counter') return drawCounter(ctx, st, row, y, h, x0, w);
    var c = TK.chooseLod(row, v0, v1, w);
    if (c.mode === 'none') return;
    st.frameStats.rows++;
    var span = row.kind === 'spans';
    var top = span ? y + 1 : y + 3, hh = span ? h - 2 : h - 6;
    var byColour = new Map();
    if (c.mode === 'pixels') {
      var bins = TK.pixelBins(row.t, row.end, v0, v1, w);
      for (var p = 0; p < w; p++) {
        if (!bins.count[p]) continue;
        addRect(byColour, TK.colour(names[row.name[bins.first[p]]]), x0 + p, top, 1, hh);
        st.frameStats.rects++;
      }
      fillBatched(ctx, byColour);
      return;
    }
    var t = row.t, end = row.end, nameCol = row.name, lv = c.level;
    if (lv) { t = lv.t; end = lv.end; nameCol = lv.name; }
    var labels = []; /* drawn over the bars, after them */
    /* Spans that touch (a CPEL state lasts until the track's next event,
     * so a run of one state is one colour) leave a 1-pixel gap where one
     * ends and the next starts, once both are 2 pixels wide or more:
     * each event shows, as in g2. The gap is a whole pixel (the previous
     * bar ends at its left edge, this one starts at its right), so no
     * anti-aliased edge fills it in, and it costs no rectangle. */
    var prev = null, prevEnd = -Infinity;
    TK.mergeRuns(t, end, c.lo, c.hi, v0, v1, w, function (a, b, i, merged) {
      var name = names[nameCol[i]];
      var bw = Math.max(b - a, span ? 1 : 1.5), x = x0 + a;
      if (span && !lv && bw >= 2 && a > 0 && a - prevEnd < 0.5 && prev && prev[prev.length - 2] >= 2) {
        var gap = Math.floor(x);
        prev[prev.length - 2] = gap - prev[prev.length - 4];
        bw -= gap + 1 - x;
        x = gap + 1;
      }
      prev = addRect(byColour, TK.colour(name), x, top, bw, hh);
      st.frameStats.rects++;
      prevEnd = a + Math.max(b - a, 1);
      if (span && bw > 40 && merged === 1 && !lv) labels.push(x, bw, name);
    });
    fillBatched(ctx, byColour);
    for (var l = 0; l < labels.length; l += 3) {
      ctx.save();
      ctx.beginPath(); ctx.rect(labels[l], top, labels[l + 1], hh); ctx.clip();
      ctx.fillStyle = '#111';
      ctx.fillText(labels[l + 2], labels[l] + 3, top + hh - 4);
      ctx.restore();
    }
  }
  function drawCounter(ctx, st, row, y, h, x0, w) {
    var v0 = st.v0, v1 = st.v1, t = row.t, val = row.value;
    if (row.pending) return;
    if (!row.range) {
      var mn = Infinity, mx = -Infinity;
      for (var i = 0; i < val.length; i++) { if (val[i] < mn) mn = val[i]; if (val[i] > mx) mx = val[i]; }
      row.range = {min: mn, max: mx === mn ? mn + 1 : mx};
    }
    var R = row.range, k = w / (v1 - v0);
    function Y(v) { return y + h - 3 - (v - R.min) / (R.max - R.min) * (h - 6); }
    var lo = Math.max(0, TK.lowerBound(t, v0) - 1), hi = Math.min(t.length, TK.upperBound(t, v1) + 1);
    ctx.strokeStyle = '#2a7ab0';
    ctx.beginPath();
    if (hi - lo <= 2 * w) {
      for (i = lo; i < hi; i++) {
        var x = x0 + Math.max(-1, Math.min(w + 1, (t[i] - v0) * k));
        if (i === lo) ctx.moveTo(x, Y(val[i])); else { ctx.lineTo(x, Y(val[i - 1])); ctx.lineTo(x, Y(val[i])); }
      }
    } else {
      /* min/max per pixel (at most 64 values looked at in a pixel) */
      var npp = (v1 - v0) / w, j = lo;
      for (var p = 0; p < w; p++) {
        var b = v0 + (p + 1) * npp, e = TK.lowerBound(t, b, j, hi);
        if (e > j) {
          var a = Infinity, z = -Infinity, stepv = Math.max(1, Math.floor((e - j) / 64));
          for (var q = j; q < e; q += stepv) { if (val[q] < a) a = val[q]; if (val[q] > z) z = val[q]; }
          ctx.moveTo(x0 + p + 0.5, Y(a)); ctx.lineTo(x0 + p + 0.5, Y(z) - 0.5);
        }
        j = e;
      }
    }
    ctx.stroke();
    ctx.fillStyle = '#555';
    ctx.fillText(String(R.max), x0 + 2, y + 10);
  }
  /* Draws the frame. st: {model, layout, v0, v1, scrollY, mode, sel,
   * picked, matches}. */
  TK.render = function (ctx, st, W, H) {
    st.frameStats = {rows: 0, rects: 0};
    ctx.clearRect(0, 0, W, H);
    ctx.font = '11px system-ui, sans-serif';
    var x0 = TK.LABEL_W, w = Math.max(1, Math.floor(W - x0));
    var items = TK.visibleItems(st.layout, st.scrollY, st.scrollY + H - TK.RULER_H);
    var model = st.model, rowH = st.layout.rowH;
    items.forEach(function (it) {
      var y = TK.RULER_H + it.y - st.scrollY;
      if (it.type === 'group') {
        ctx.fillStyle = '#e4e9ef';
        ctx.fillRect(0, y, W, it.h);
        ctx.fillStyle = '#123';
        ctx.font = '600 12px system-ui, sans-serif';
        ctx.fillText((it.collapsed ? '\u25b6 ' : '\u25bc ') + model.groups[it.group].name + '  (' + it.count + ')', 6, y + 15);
        ctx.font = '11px system-ui, sans-serif';
        return;
      }
      var track = model.tracks[it.track];
      ctx.fillStyle = it.track === st.hoverTrack ? '#f4f8ff' : '#fff';
      ctx.fillRect(0, y, W, it.h);
      ctx.strokeStyle = '#eee';
      ctx.beginPath(); ctx.moveTo(0, y + it.h - 0.5); ctx.lineTo(W, y + it.h - 0.5); ctx.stroke();
      ctx.save();
      ctx.beginPath(); ctx.rect(0, y, x0 - 4, it.h); ctx.clip();
      ctx.fillStyle = '#333';
      ctx.fillText(track.name, 16, y + 13);
      ctx.restore();
      ctx.save();
      ctx.beginPath(); ctx.rect(x0, y, w, it.h); ctx.clip();
      if (track.kind === 'counter') drawCounter(ctx, st, track.rows[0], y, it.h, x0, w);
      else track.rows.forEach(function (row, d) { drawRow(ctx, st, row, y + d * rowH, rowH, x0, w); });
      ctx.restore();
    });
    var k = w / (st.v1 - st.v0);
    /* search matches in view (one mark per pixel at most) */
    if (st.matches && st.matches.length) {
      ctx.fillStyle = 'rgba(255,0,0,.9)';
      var lastX = -2;
      var lo = TK.lowerBound(st.matchTimes, st.v0), hi = TK.upperBound(st.matchTimes, st.v1);
      for (var m = lo; m < hi; m++) {
        var mx = Math.floor(x0 + (st.matchTimes[m] - st.v0) * k);
        if (mx === lastX) continue;
        lastX = mx;
        ctx.fillRect(mx, TK.RULER_H - 6, 1, 6);
      }
    }
    if (st.sel) {
      var a = x0 + (Math.min(st.sel.a, st.sel.b) - st.v0) * k, b = x0 + (Math.max(st.sel.a, st.sel.b) - st.v0) * k;
      ctx.fillStyle = 'rgba(40,110,220,.15)';
      ctx.fillRect(Math.max(x0, a), TK.RULER_H, Math.min(W, b) - Math.max(x0, a), H);
      ctx.strokeStyle = 'rgba(40,110,220,.8)';
      ctx.beginPath(); ctx.moveTo(a + 0.5, 0); ctx.lineTo(a + 0.5, H); ctx.moveTo(b + 0.5, 0); ctx.lineTo(b + 0.5, H); ctx.stroke();
    }
    if (st.picked) {
      var pr = st.picked, it2 = st.layout.items.find(function (x) { return x.track === pr.row.track && x.type === 'track'; });
      if (it2) {
        var px = x0 + (pr.row.t[pr.i] - st.v0) * k, pe = x0 + (pr.row.end[pr.i] - st.v0) * k;
        var py = TK.RULER_H + it2.y - st.scrollY + pr.row.depth * rowH;
        ctx.strokeStyle = '#000'; ctx.lineWidth = 2;
        ctx.strokeRect(px - 2, py + 1, Math.max(4, pe - px + 4), rowH - 2);
        ctx.lineWidth = 1;
      }
    }
    drawRuler(ctx, st, W);
    ctx.strokeStyle = '#ccc';
    ctx.beginPath(); ctx.moveTo(x0 - 0.5, TK.RULER_H); ctx.lineTo(x0 - 0.5, H); ctx.stroke();
  };
})(TK);
