/* tracekit view: the page's wiring. Keys and mouse (Perfetto's: WASD,
 * Ctrl+wheel zoom, Shift+wheel pan, drag to select), tooltip, details of
 * the clicked event, g2's chase ([ ] { }), search, range statistics, the
 * flame graph, the track list, and bookmarks kept in the URL fragment.
 * window.tkView exposes the state for the tests and the benchmark. */
(function () {
  'use strict';
  if (typeof document === 'undefined') return;
  var $ = function (id) { return document.getElementById(id); };
  var t_start = performance.now();
  var model;
  try {
    /* what is in the document so far: this script runs before the bulk
     * of the data, which the parser is still reading (see data.js) */
    model = TK.loadModel(function (id) { var e = $(id); return e ? e.textContent : ''; }, arrayRead);
  } catch (e) {
    document.body.textContent = 'tracekit view: cannot read the embedded data: ' + e;
    return;
  }
  /* Whether the browser has read array i (all its parts) to its end:
   * the parser adds what follows an element only once it has closed it. */
  function arrayRead(i, parts) {
    var e = $('tk-a' + i + '-' + (parts - 1));
    return !!e && (!!e.nextSibling || document.readyState !== 'loading');
  }
  var canvas = $('timeline'), ctx = canvas.getContext('2d');
  var span = Math.max(model.span, 1);
  var st = {
    model: model, v0: 0, v1: span, scrollY: 0, mode: 'rel', sel: null, picked: null,
    matches: null, matchTimes: null, matchIndex: -1, collapsed: new Set(), filter: '',
    hoverTrack: -1, layout: null, frameStats: null
  };
  var frameTimes = [], firstFrame = null;
  var bookmarks = [];
  var W = 0, H = 0, dpr = window.devicePixelRatio || 1;

  function relayout() {
    st.layout = TK.buildLayout(model.groups, model.tracks, {collapsed: st.collapsed, filter: st.filter});
    clampScroll();
  }
  function clampScroll() {
    var max = Math.max(0, st.layout.height - (H - TK.RULER_H) + 20);
    st.scrollY = Math.max(0, Math.min(st.scrollY, max));
  }
  function resize() {
    var r = canvas.getBoundingClientRect();
    W = Math.max(300, Math.floor(r.width)); H = Math.max(100, Math.floor(r.height));
    canvas.width = Math.floor(W * dpr); canvas.height = Math.floor(H * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    clampScroll();
    draw();
  }
  var pending = false;
  function draw() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () { pending = false; drawNow(); });
  }
  function drawNow() {
    var a = performance.now();
    TK.render(ctx, st, W, H);
    frameTimes.push(performance.now() - a);
    if (!firstFrame) firstFrame = {rows: st.frameStats.rows, rects: st.frameStats.rects, complete: model.complete};
    if (frameTimes.length > 1000) frameTimes.shift();
    $('range').textContent = TK.fmtTime(model.t0, st.v0, st.mode, model.epoch) + ' .. ' +
      TK.fmtTime(model.t0, st.v1, st.mode, model.epoch) + ' (' + TK.fmtDur(st.v1 - st.v0) + ')';
  }
  function dataWidth() { return Math.max(1, W - TK.LABEL_W); }
  function xToT(x) { return st.v0 + (x - TK.LABEL_W) / dataWidth() * (st.v1 - st.v0); }
  function tToX(t) { return TK.LABEL_W + (t - st.v0) / (st.v1 - st.v0) * dataWidth(); }
  function setWindow(v0, v1) {
    var minW = 10;
    if (v1 - v0 < minW) { var c = (v0 + v1) / 2; v0 = c - minW / 2; v1 = c + minW / 2; }
    var pad = span * 0.05;
    if (v1 - v0 > span + 2 * pad) { v0 = 0; v1 = span; } /* wider than the trace: the trace */
    if (v0 < -pad) { v1 += -pad - v0; v0 = -pad; }
    if (v1 > span + pad) { v0 -= v1 - span - pad; v1 = span + pad; }
    /* the tooltip names what was under the mouse: stale once the view moves */
    if (v0 !== st.v0 || v1 !== st.v1) $('tooltip').hidden = true;
    st.v0 = v0; st.v1 = v1;
    draw();
  }
  function zoom(factor, atT) {
    if (atT === undefined) atT = (st.v0 + st.v1) / 2;
    setWindow(atT - (atT - st.v0) * factor, atT + (st.v1 - atT) * factor);
  }
  function pan(frac) {
    var d = (st.v1 - st.v0) * frac;
    setWindow(st.v0 + d, st.v1 + d);
  }

  /* ---- picking ---- */
  function itemAt(y) { return TK.hitItem(st.layout, y - TK.RULER_H + st.scrollY); }
  function pick(x, y) {
    if (x < TK.LABEL_W || y < TK.RULER_H) return null;
    var it = itemAt(y);
    if (!it || it.type !== 'track') return null;
    var track = model.tracks[it.track];
    if (track.kind === 'counter') {
      var r0 = track.rows[0], tc = xToT(x), ic = TK.upperBound(r0.t, tc) - 1;
      return ic >= 0 ? {row: r0, i: ic} : null;
    }
    var d = Math.floor((y - TK.RULER_H + st.scrollY - it.y) / st.layout.rowH);
    var row = track.rows[Math.max(0, Math.min(d, track.rows.length - 1))];
    if (row.pending) TK.fillLoaded(model, [row]); /* the page is still loading */
    var t = xToT(x), tol = 4 * (st.v1 - st.v0) / dataWidth();
    var i = TK.lowerBound(row.end, t - tol);
    var best = -1, bestD = Infinity;
    for (var j = i; j < row.n && row.t[j] <= t + tol; j++) {
      var dist = t < row.t[j] ? row.t[j] - t : t > row.end[j] ? t - row.end[j] : 0;
      if (dist < bestD) { bestD = dist; best = j; }
      if (j - i > 64) break;
    }
    return best >= 0 ? {row: row, i: best} : null;
  }
  function nameOf(p) { return p.row.name ? model.strings[p.row.name[p.i]] : model.tracks[p.row.track].name; }
  function trackLabel(ti) {
    var tr = model.tracks[ti], g = model.groups[tr.group];
    return g.name + ' / ' + tr.name;
  }
  function stackFrames(id) {
    var out = [];
    while (id) { out.push(model.strings[model.stacks.frame[id - 1]]); id = model.stacks.parent[id - 1]; }
    return out; /* leaf first */
  }
  function detailsOf(p) {
    if (!p.row.arg) return null;
    var a = p.row.arg[p.i];
    if (!a) return null;
    try { return JSON.parse(model.getDetails()[a]); } catch (e) { return null; }
  }
  function showDetails(p) {
    var el = $('tab-details'), row = p.row, i = p.i, E = TK.escapeHtml;
    var h = '<table class="kv" id="details-table">';
    function kv(k, v) { h += '<tr><td>' + E(k) + '</td><td class="mono">' + E(v) + '</td></tr>'; }
    kv('name', nameOf(p));
    kv('time', TK.fmtTime(model.t0, row.t[i], 'abs', model.epoch));
    kv('from start', TK.fmtTime(model.t0, row.t[i], 'rel', model.epoch) + ' s');
    if (row.dur) kv('duration', TK.fmtDur(row.dur[i]));
    kv('track', trackLabel(row.track));
    var tr = model.tracks[row.track];
    if (tr.tid >= 0) kv('thread', tr.name + ' (tid ' + tr.tid + ')');
    if (row.cpu && row.cpu[i]) kv('cpu', String(row.cpu[i] - 1));
    if (row.value) kv('value', String(row.value[i]));
    if (row.weight) kv('weight (period)', String(row.weight[i]));
    var f = detailsOf(p);
    if (f) Object.keys(f).forEach(function (k) {
      kv(k, typeof f[k] === 'object' ? JSON.stringify(f[k]) : String(f[k]));
    });
    h += '</table>';
    if (!f && row.arg && row.arg[i] && !model.complete) h += '<p class="hint">fields: not read yet (the page is still loading)</p>';
    if (row.stack && row.stack[i] && row.stack[i] > model.stacks.n) {
      h += '<p class="hint">stack: not read yet (the page is still loading)</p>';
    } else if (row.stack && row.stack[i]) {
      h += '<h4>stack (leaf first)</h4><ol class="mono" id="details-stack">';
      stackFrames(row.stack[i]).forEach(function (fr) { h += '<li>' + E(fr) + '</li>'; });
      h += '</ol>';
    }
    el.innerHTML = h;
    showTab('details');
  }
  function setPicked(p, center) {
    st.picked = p;
    if (p) {
      showDetails(p);
      if (center && (p.row.t[p.i] < st.v0 || p.row.t[p.i] > st.v1)) {
        var w = st.v1 - st.v0;
        setWindow(p.row.t[p.i] - w / 2, p.row.t[p.i] + w / 2);
      }
      scrollToTrack(p.row.track);
    }
    draw();
  }
  function scrollToTrack(ti) {
    var it = st.layout.items.find(function (x) { return x.track === ti; });
    if (!it) {
      st.collapsed.delete(model.tracks[ti].group);
      relayout();
      it = st.layout.items.find(function (x) { return x.track === ti; });
    }
    if (!it) return;
    var vis = H - TK.RULER_H;
    if (it.y < st.scrollY || it.y + it.h > st.scrollY + vis) { st.scrollY = it.y - vis / 3; clampScroll(); }
  }
  /* g2's chase: the next (dir 1) or previous (-1) event of the same name
   * (by 'name': on the same track, or on any track), the next on the same
   * track whatever its name (by 'track'), or the next with the same
   * fields, its datum (by 'datum', on any track). */
  function chase(dir, anyTrack, by) {
    var p = st.picked;
    if (!p || !p.row.name) return;
    by = by || 'name';
    var nm = p.row.name[p.i], t = p.row.t[p.i], arg = p.row.arg ? p.row.arg[p.i] : 0;
    if (by === 'datum' && !arg) return; /* no fields kept for it */
    var best = null;
    var rows = anyTrack ? model.rows : model.tracks[p.row.track].rows;
    TK.fillLoaded(model, rows);
    rows.forEach(function (row) {
      if (!row.name) return;
      var i = dir > 0 ? TK.lowerBound(row.t, t) : TK.upperBound(row.t, t) - 1;
      for (; i >= 0 && i < row.n; i += dir) {
        if (row === p.row && i === p.i) continue;
        if (row.t[i] === t && row === p.row && (dir > 0 ? i < p.i : i > p.i)) continue;
        if (row.t[i] === t && row !== p.row && (dir > 0 ? row.index < p.row.index : row.index > p.row.index)) continue;
        if (by === 'name' ? row.name[i] !== nm : by === 'datum' ? !row.arg || row.arg[i] !== arg : false) continue;
        if (!best || (dir > 0 ? row.t[i] < best.row.t[best.i] : row.t[i] > best.row.t[best.i])) best = {row: row, i: i};
        break;
      }
    });
    if (best) setPicked(best, true);
  }

  /* ---- search ---- */
  function runSearch() {
    var q = $('search').value.trim().toLowerCase();
    if (!q) { st.matches = null; st.matchTimes = null; $('search-info').textContent = ''; draw(); return; }
    TK.fillLoaded(model); /* while the page loads: the rows read so far */
    var nameHit = new Uint8Array(model.strings.length);
    model.strings.forEach(function (s, i) { if (s.toLowerCase().indexOf(q) >= 0) nameHit[i] = 1; });
    var det = model.getDetails(), argHit = new Uint8Array(det.length);
    det.forEach(function (s, i) { if (i && s.toLowerCase().indexOf(q) >= 0) argHit[i] = 1; });
    var found = [];
    model.rows.forEach(function (row) {
      if (!row.name) return;
      for (var i = 0; i < row.n && found.length < 1e6; i++)
        if (nameHit[row.name[i]] || argHit[row.arg[i]]) found.push({row: row, i: i});
    });
    found.sort(function (a, b) { return a.row.t[a.i] - b.row.t[b.i] || a.row.index - b.row.index || a.i - b.i; });
    st.matches = found;
    st.matchTimes = Float64Array.from(found.map(function (m) { return m.row.t[m.i]; }));
    st.matchIndex = -1;
    st.matchQuery = q;
    $('search-info').textContent = found.length + (model.complete ? ' matches' : ' matches so far');
    draw();
  }
  function searchStep(dir) {
    var q = $('search').value.trim().toLowerCase();
    if (!st.matches || st.matchQuery !== q) runSearch();
    var m = st.matches;
    if (!m || !m.length) return;
    if (st.matchIndex < 0) {
      var c = st.picked ? st.picked.row.t[st.picked.i] : st.v0;
      st.matchIndex = dir > 0 ? TK.lowerBound(st.matchTimes, c) : TK.upperBound(st.matchTimes, c) - 1;
      if (st.picked && dir > 0 && m[st.matchIndex] && m[st.matchIndex].row === st.picked.row && m[st.matchIndex].i === st.picked.i) st.matchIndex++;
    } else st.matchIndex += dir;
    st.matchIndex = (st.matchIndex + m.length) % m.length;
    $('search-info').textContent = (st.matchIndex + 1) + ' / ' + m.length + (model.complete ? '' : ' so far');
    setPicked(m[st.matchIndex], true);
  }

  /* ---- range statistics and flame graph ---- */
  function currentRange() {
    if (st.sel) return {a: Math.min(st.sel.a, st.sel.b), b: Math.max(st.sel.a, st.sel.b)};
    return {a: 0, b: span};
  }
  function showStats() {
    var r = currentRange(), s = TK.rangeStats(model, r.a, r.b), E = TK.escapeHtml;
    st.lastStats = s;
    var h = '<p>' + (st.sel ? 'selection ' : 'whole trace ') + '<span class="mono" id="stats-range"></span> (' +
      TK.fmtDur(r.b - r.a) + '): <b id="stats-total">' + s.total + '</b> events, <b id="stats-spans">' +
      s.spans + '</b> spans</p><div class="stats-cols">';
    function table(id, title, rows, label) {
      h += '<table id="' + id + '"><tr><th>' + title + '</th><th class="num">count</th><th class="num">total duration</th></tr>';
      rows.slice(0, 500).forEach(function (e) {
        h += '<tr><td>' + E(label(e.key)) + '</td><td class="num">' + e.count + '</td><td class="num">' +
          (e.dur ? TK.fmtDur(e.dur) : '') + '</td></tr>';
      });
      h += '</table>';
    }
    table('stats-names', 'event', s.byName, function (k) { return k; });
    table('stats-tracks', 'events per thread / track', s.byTrack, trackLabel);
    table('stats-cpus', 'events per CPU', s.byCpu, function (k) { return 'CPU ' + k; });
    table('stats-span-names', 'span', s.spanNames, function (k) { return k; });
    table('stats-span-tracks', 'spans per track', s.spanTracks, trackLabel);
    el('tab-stats').innerHTML = h + '</div>';
    showStatsRange();
  }
  /* The range's bounds as the ruler shows times (from the trace's start,
   * or the trace's clock), the other way in the tooltip. */
  function showStatsRange() {
    var e = $('stats-range');
    if (!e) return;
    var r = currentRange(), other = st.mode === 'rel' ? 'abs' : 'rel';
    var text = function (mode) {
      return TK.fmtTime(model.t0, r.a, mode, model.epoch) + ' .. ' + TK.fmtTime(model.t0, r.b, mode, model.epoch);
    };
    e.textContent = text(st.mode) + (st.mode === 'rel' ? ' s' : '');
    e.title = other === 'rel' ? 'from the trace\'s start: ' + text('rel') + ' s' :
      (model.epoch ? 'wall clock (UTC): ' : 'trace clock: ') + text('abs');
  }
  function el(id) { return $(id); }
  var flame = {tree: null, focus: 0, rects: []};
  function showFlame() {
    var r = currentRange();
    var sw = TK.sampleWeights(model.rows, model.stacks.n, r.a, r.b);
    flame.tree = TK.buildFlame(model.stacks, sw.self);
    flame.samples = sw.samples; flame.weight = sw.weight;
    flame.focus = 0;
    drawFlame();
    var rows = TK.symbolTable(flame.tree, model.strings), E = TK.escapeHtml, tot = sw.weight || 1;
    flame.table = rows;
    var h = '<table id="flame-symbols"><tr><th>symbol</th><th class="num">self</th><th class="num">self %</th><th class="num">total</th></tr>';
    rows.slice(0, 500).forEach(function (e) {
      h += '<tr><td class="mono" title="' + E(e.name) + '">' + E(e.name) + '</td><td class="num">' + e.self + '</td><td class="num">' +
        (100 * e.self / tot).toFixed(2) + '%</td><td class="num">' + e.total + '</td></tr>';
    });
    $('flame-table').innerHTML = h + '</table>';
  }
  function drawFlame() {
    var c = $('flame'), fx = c.getContext('2d');
    var r = c.getBoundingClientRect(), fw = Math.max(200, Math.floor(r.width)), fh = Math.max(100, Math.floor(r.height));
    c.width = fw * dpr; c.height = fh * dpr; fx.setTransform(dpr, 0, 0, dpr, 0, 0);
    fx.clearRect(0, 0, fw, fh);
    fx.font = '11px system-ui, sans-serif';
    var tree = flame.tree;
    if (!tree) return;
    var icicle = $('flame-icicle').checked, bh = 16;
    var q = $('flame-search').value.trim();
    var re = null;
    try { re = q ? new RegExp(q.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i') : null; } catch (e) { re = null; }
    flame.rects = TK.flameRects(tree, flame.focus, 0.5 / fw);
    flame.rects.forEach(function (rc) {
      var name = TK.frameName(tree, model.strings, rc.id);
      var x = rc.x * fw, w = rc.w * fw, y = icicle ? rc.depth * bh : fh - (rc.depth + 1) * bh;
      rc.px = {x: x, y: y, w: w, h: bh};
      fx.fillStyle = re && re.test(name) ? '#e040e0' : TK.colour(name, true);
      fx.fillRect(x, y, Math.max(w - 0.5, 0.5), bh - 1);
      if (w > 30) {
        fx.save(); fx.beginPath(); fx.rect(x, y, w, bh); fx.clip();
        fx.fillStyle = '#111'; fx.fillText(name, x + 3, y + 12); fx.restore();
      }
    });
    var info = flame.samples + ' samples, weight ' + flame.weight;
    if (re) info += '; matched ' + TK.flameSearch(tree, model.strings, re) + ' (' +
      (100 * TK.flameSearch(tree, model.strings, re) / (flame.weight || 1)).toFixed(2) + '%)';
    $('flame-info').textContent = info;
  }
  /* The statistics and flame graph of the whole trace wait for their tab
   * on big traces (they read every entry); a selection computes them. */
  var panelsStale = true;
  function refreshPanels() { showStats(); showFlame(); panelsStale = false; }
  var BIG = 2e6;

  /* ---- track list ---- */
  function showTrackList() {
    var E = TK.escapeHtml, h = '';
    var all = TK.buildLayout(model.groups, model.tracks, {filter: st.filter});
    all.items.forEach(function (it) {
      if (it.type === 'group') h += '<div class="grp" data-group="' + it.group + '">' +
        (st.collapsed.has(it.group) ? '\u25b6 ' : '\u25bc ') + E(model.groups[it.group].name) + '</div>';
      else {
        var tr = model.tracks[it.track];
        h += '<div class="trk" data-track="' + it.track + '" data-tid="' + tr.tid + '"><span class="tname">' + E(tr.name) +
          '</span> <span class="tkind">' + tr.kind + '</span> <span class="tcount">' + tr.n + '</span></div>';
      }
    });
    $('tab-tracks').innerHTML = h;
  }
  $('tab-tracks').addEventListener('click', function (e) {
    var g = e.target.closest('[data-group]'), t = e.target.closest('[data-track]');
    if (g) toggleGroup(+g.dataset.group);
    else if (t) { scrollToTrack(+t.dataset.track); draw(); }
  });
  function toggleGroup(g) {
    if (st.collapsed.has(g)) st.collapsed.delete(g); else st.collapsed.add(g);
    relayout(); showTrackList(); draw();
  }

  /* ---- bookmarks: the view in the URL fragment ---- */
  function fragment() {
    var parts = ['v=' + st.v0.toFixed(0) + ',' + st.v1.toFixed(0), 'mode=' + st.mode];
    if (st.sel) parts.push('sel=' + Math.min(st.sel.a, st.sel.b).toFixed(0) + ',' + Math.max(st.sel.a, st.sel.b).toFixed(0));
    if (st.filter) parts.push('tracks=' + encodeURIComponent(st.filter));
    if (bookmarks.length) parts.push('bm=' + bookmarks.map(function (b) {
      return encodeURIComponent(b.name) + ':' + b.v0.toFixed(0) + ':' + b.v1.toFixed(0);
    }).join(';'));
    return '#' + parts.join('&');
  }
  function saveFragment() { history.replaceState(null, '', fragment()); }
  function loadFragment() {
    var h = location.hash.replace(/^#/, '');
    if (!h) return;
    h.split('&').forEach(function (kv) {
      var i = kv.indexOf('='), k = kv.slice(0, i), v = kv.slice(i + 1);
      if (k === 'v') { var a = v.split(',').map(Number); if (a.length === 2 && a[1] > a[0]) { st.v0 = a[0]; st.v1 = a[1]; } }
      else if (k === 'mode' && (v === 'abs' || v === 'rel')) st.mode = v;
      else if (k === 'sel') { var s = v.split(',').map(Number); if (s.length === 2) st.sel = {a: s[0], b: s[1]}; }
      else if (k === 'tracks') { st.filter = decodeURIComponent(v); $('track-filter').value = st.filter; }
      else if (k === 'bm') bookmarks = v.split(';').map(function (b) {
        var p = b.split(':');
        return {name: decodeURIComponent(p[0]), v0: +p[1], v1: +p[2]};
      }).filter(function (b) { return b.v1 > b.v0; });
    });
  }
  function addBookmark() {
    bookmarks.push({name: 'view ' + (bookmarks.length + 1), v0: st.v0, v1: st.v1});
    if (bookmarks.length > 16) bookmarks.shift(); /* g2's snapshot ring */
    saveFragment(); showBookmarks();
  }
  function showBookmarks() {
    var E = TK.escapeHtml, h = '<ol>';
    bookmarks.forEach(function (b, i) {
      h += '<li data-bm="' + i + '">' + E(b.name) + ': ' + E(TK.fmtTime(model.t0, b.v0, st.mode, model.epoch)) +
        ' .. ' + E(TK.fmtTime(model.t0, b.v1, st.mode, model.epoch)) + '</li>';
    });
    $('tab-bookmarks').innerHTML = h + '</ol><p class="hint">B adds the current view; the list lives in the URL, so a bookmark of this page reopens it.</p>';
  }
  $('tab-bookmarks').addEventListener('click', function (e) {
    var li = e.target.closest('[data-bm]');
    if (li) { var b = bookmarks[+li.dataset.bm]; setWindow(b.v0, b.v1); saveFragment(); }
  });

  /* ---- tabs ---- */
  function showTab(name) {
    document.querySelectorAll('#tabs button').forEach(function (b) { b.classList.toggle('on', b.dataset.tab === name); });
    document.querySelectorAll('.tab').forEach(function (t) { t.classList.toggle('on', t.id === 'tab-' + name); });
    if ((name === 'flame' || name === 'stats') && panelsStale) refreshPanels();
    if (name === 'flame') drawFlame();
  }
  $('tabs').addEventListener('click', function (e) { if (e.target.dataset.tab) showTab(e.target.dataset.tab); });

  /* ---- mouse ---- */
  var drag = null;
  canvas.addEventListener('mousedown', function (e) {
    canvas.focus();
    var r = canvas.getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top;
    if (x < TK.LABEL_W) {
      var it = itemAt(y);
      if (it && it.type === 'group') toggleGroup(it.group);
      return;
    }
    drag = {x: x, y: y, t: xToT(x), moved: false};
  });
  window.addEventListener('mousemove', function (e) {
    var r = canvas.getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top;
    if (drag) {
      if (Math.abs(x - drag.x) > 3) drag.moved = true;
      if (drag.moved) { st.sel = {a: drag.t, b: xToT(Math.max(TK.LABEL_W, Math.min(W, x)))}; draw(); }
      return;
    }
    var tip = $('tooltip');
    if (x < 0 || y < 0 || x > W || y > H) { tip.hidden = true; return; }
    var p = pick(x, y);
    var it = y >= TK.RULER_H ? itemAt(y) : null;
    var ht = it && it.type === 'track' ? it.track : -1;
    if (ht !== st.hoverTrack) { st.hoverTrack = ht; draw(); }
    if (!p) { tip.hidden = true; return; }
    var row = p.row, txt = nameOf(p) + '\n' + TK.fmtTime(model.t0, row.t[p.i], st.mode, model.epoch);
    if (row.dur) txt += '  ' + TK.fmtDur(row.dur[p.i]);
    if (row.value) txt += '  value ' + row.value[p.i];
    txt += '\n' + trackLabel(row.track);
    tip.textContent = txt;
    tip.hidden = false;
    tip.style.left = Math.min(x + 14, W - 300) + 'px';
    tip.style.top = (y + 14) + 'px';
  });
  window.addEventListener('mouseup', function (e) {
    if (!drag) return;
    var r = canvas.getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top;
    var d = drag;
    drag = null;
    if (d.moved) {
      /* whole ns, so the bounds shown are the bounds used */
      st.sel = {a: Math.round(st.sel.a), b: Math.round(st.sel.b)};
      saveFragment(); refreshPanels(); showTab('stats'); draw(); return;
    }
    setPicked(pick(x, y), false);
  });
  canvas.addEventListener('wheel', function (e) {
    e.preventDefault();
    var r = canvas.getBoundingClientRect(), x = e.clientX - r.left;
    if (e.ctrlKey || e.metaKey) zoom(Math.pow(1.0025, e.deltaY), x >= TK.LABEL_W ? xToT(x) : undefined);
    else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) pan((e.shiftKey ? e.deltaY : e.deltaX) / dataWidth());
    else { st.scrollY += e.deltaY; clampScroll(); draw(); }
  }, {passive: false});
  canvas.addEventListener('mouseleave', function () { $('tooltip').hidden = true; mouseT = undefined; });

  /* ---- keys ---- */
  var mouseT;
  canvas.addEventListener('mousemove', function (e) {
    var x = e.clientX - canvas.getBoundingClientRect().left;
    mouseT = x >= TK.LABEL_W ? xToT(x) : undefined;
  });
  document.addEventListener('keydown', function (e) {
    var tag = e.target.tagName;
    if (tag === 'INPUT') {
      if (e.target.id === 'search' && e.key === 'Enter') { searchStep(e.shiftKey ? -1 : 1); e.preventDefault(); }
      return;
    }
    var k = e.key;
    switch (k) {
    case 'w': case 'W': zoom(0.8, mouseT); break;
    case 's': case 'S': zoom(1.25, mouseT); break;
    case 'a': case 'A': pan(-0.1); break;
    case 'd': case 'D': pan(0.1); break;
    /* the trace's own bounds: the window may be panned past them, but
     * these keys (and the first view) start at the trace's first event */
    case 'Home': setWindow(0, st.v1 - st.v0); break;
    case 'End': setWindow(span - (st.v1 - st.v0), span); break;
    case '0': setWindow(0, span); break;
    case 'z': case 'Z': zoomToSelection(); break;
    case 'b': case 'B': addBookmark(); break;
    case 'Escape': st.sel = null; st.picked = null; refreshPanels(); draw(); break;
    case ']': chase(1, false); break;
    case '[': chase(-1, false); break;
    case '}': chase(1, true); break;
    case '{': chase(-1, true); break;
    case '.': chase(1, false, 'track'); break;
    case ',': chase(-1, false, 'track'); break;
    case '>': chase(1, true, 'datum'); break;
    case '<': chase(-1, true, 'datum'); break;
    case '?': $('help').hidden = !$('help').hidden; break;
    default: return;
    }
    e.preventDefault();
    saveFragmentSoon();
  });
  var fragTimer = null;
  function saveFragmentSoon() { clearTimeout(fragTimer); fragTimer = setTimeout(saveFragment, 300); }
  function zoomToSelection() {
    if (!st.sel) return;
    setWindow(Math.min(st.sel.a, st.sel.b), Math.max(st.sel.a, st.sel.b));
  }
  $('zoom-sel').onclick = zoomToSelection;
  $('bookmark').onclick = addBookmark;
  $('help-btn').onclick = function () { $('help').hidden = !$('help').hidden; };
  $('timemode').onclick = function () {
    st.mode = st.mode === 'rel' ? 'abs' : 'rel';
    $('timemode').textContent = st.mode === 'rel' ? 'relative' : (model.epoch ? 'wall clock' : 'trace clock');
    saveFragment(); showBookmarks(); showStatsRange(); drawNow();
  };
  $('search-next').onclick = function () { searchStep(1); };
  $('search-prev').onclick = function () { searchStep(-1); };
  $('track-filter').addEventListener('input', function () {
    st.filter = this.value; relayout(); showTrackList(); saveFragmentSoon(); draw();
  });
  $('flame-icicle').onchange = drawFlame;
  $('flame-search').addEventListener('input', drawFlame);
  $('flame-reset').onclick = function () { flame.focus = 0; drawFlame(); };
  $('flame').addEventListener('click', function (e) {
    var r = this.getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top;
    var hit = flame.rects.find(function (rc) { return rc.px && x >= rc.px.x && x < rc.px.x + rc.px.w && y >= rc.px.y && y < rc.px.y + rc.px.h; });
    if (hit) { flame.focus = hit.id; drawFlame(); }
  });
  window.addEventListener('resize', resize);
  window.addEventListener('hashchange', function () { loadFragment(); draw(); });

  /* ---- start ---- */
  $('inputs').textContent = model.meta.inputs.map(function (i) { return i.path + ' (' + i.format + ')'; }).join(', ') +
    ' \u2014 ' + model.meta.nEvents + ' events' + (model.meta.detailsDropped ? ', details of ' + model.meta.detailsDropped + ' left out' : '');
  setWindow(0, span);
  loadFragment();
  $('timemode').textContent = st.mode === 'rel' ? 'relative' : (model.epoch ? 'wall clock' : 'trace clock');
  relayout();
  resize();
  showTrackList();
  showBookmarks();
  showTab('details');
  var firstPaint = null, startMs = performance.now() - t_start, loadMs = null;
  requestAnimationFrame(function () { firstPaint = performance.now(); });
  /* The rest of the data, once the parser has read it: until then the
   * frames are drawn from the levels of detail written before this
   * script, and picking, chasing and search fill in the rows read so far
   * (TK.fillLoaded); the search runs again on all of them here. */
  function complete() {
    try {
      TK.completeModel(model);
    } catch (e) {
      document.body.textContent = 'tracekit view: cannot read the embedded data: ' + e;
      return;
    }
    panelsStale = true; /* a panel opened while loading saw no rows */
    if (model.meta.nEvents + (model.meta.nSpans || 0) < BIG || st.sel) refreshPanels();
    if ($('search').value.trim()) runSearch();
    /* an event picked while loading: now with its fields and stack */
    if (st.picked && $('tab-details').classList.contains('on')) showDetails(st.picked);
    var on = document.querySelector('#tabs button.on');
    if (on && on.dataset.tab !== 'details') showTab(on.dataset.tab);
    loadMs = performance.now(); /* since navigation, as firstPaint */
    drawNow();
    window.tkView.ready = true;
  }

  /* For the tests and the benchmark. */
  window.tkView = {
    ready: false,
    startMs: startMs,
    loadMs: function () { return loadMs; },
    firstPaint: function () { return firstPaint; },
    /* what the first frame drew (before the bulk of the data was read?) */
    firstFrame: function () { return firstFrame; },
    model: model,
    state: st,
    frameTimes: frameTimes,
    window: function () {
      return {v0: st.v0, v1: st.v1, begin: TK.absNs(model.t0, st.v0).toString(), end: TK.absNs(model.t0, st.v1).toString()};
    },
    setWindow: function (a, b) { setWindow(a, b); drawNow(); },
    selection: function () {
      if (!st.sel) return null;
      var a = Math.min(st.sel.a, st.sel.b), b = Math.max(st.sel.a, st.sel.b);
      return {a: a, b: b, begin: TK.absNs(model.t0, a).toString(), end: TK.absNs(model.t0, b).toString()};
    },
    /* page coordinates of entry i of a track's row (for clicks in tests) */
    entryPosition: function (track, i, depth) {
      var row = model.tracks[track].rows[depth || 0];
      scrollToTrack(track); drawNow();
      var it = st.layout.items.find(function (x) { return x.track === track; });
      var r = canvas.getBoundingClientRect();
      var x = tToX(row.t[i]) + (row.dur ? Math.min(2, (tToX(row.end[i]) - tToX(row.t[i])) / 2) : 0);
      return {x: r.left + x, y: r.top + TK.RULER_H + it.y - st.scrollY + (depth || 0) * st.layout.rowH + st.layout.rowH / 2};
    },
    picked: function () { return st.picked ? {track: st.picked.row.track, i: st.picked.i, name: nameOf(st.picked)} : null; },
    flame: function () { return {samples: flame.samples, weight: flame.weight, symbols: flame.table}; },
    flameFocus: function () {
      return flame.tree ? {id: flame.focus, name: TK.frameName(flame.tree, model.strings, flame.focus),
        total: flame.tree.total[flame.focus]} : null;
    },
    stats: function () { return st.lastStats; },
    ruler: function () { return st.ruler; },
    /* where the flame graph's root and the symbol table are, in page
     * coordinates, against the part of the panel that is in view */
    flameLayout: function () {
      var c = $('flame').getBoundingClientRect(), tab = $('tab-flame').getBoundingClientRect();
      var root = flame.rects.find(function (rc) { return rc.id === 0 && rc.px; });
      var tb = $('flame-table');
      return {tab: {top: tab.top, bottom: tab.bottom, left: tab.left, right: tab.right},
        canvas: {top: c.top, bottom: c.bottom},
        root: root ? {top: c.top + root.px.y, bottom: c.top + root.px.y + root.px.h,
          left: c.left + root.px.x, right: c.left + root.px.x + root.px.w} : null,
        table: {scrollWidth: tb.scrollWidth, clientWidth: tb.clientWidth,
          right: tb.getBoundingClientRect().right, rows: tb.querySelectorAll('tr').length}};
    },
    drawNow: drawNow
  };
  if (model.complete) complete();
  else document.addEventListener('DOMContentLoaded', complete);
})();
