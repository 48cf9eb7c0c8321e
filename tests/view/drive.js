// Drives one view.html in headless chromium (npm's playwright-core from the
// build tree, Debian's chromium) and prints, as JSON, what the page shows:
// the track list, the whole-trace statistics, the details of a clicked
// event, the window before/after zoom and pan keys, a dragged selection
// with its statistics and flame graph totals. Screenshots go to OUTDIR.
// The shell tests compare the JSON with tracekit stats/report.
// usage: node drive.js PAGE.html OUTDIR [--bench]
'use strict';
const path = require('path');
const fs = require('fs');
const modDir = path.join(process.env.TK_BUILD_DIR || '.', 'npm', 'node_modules', 'playwright-core');
const { chromium } = require(modDir);

async function main() {
  const [page_path, outdir] = process.argv.slice(2);
  const bench = process.argv.includes('--bench');
  fs.mkdirSync(outdir, { recursive: true });
  const exe = process.env.CHROMIUM || '/usr/bin/chromium';
  let browser;
  try {
    browser = await chromium.launch({ executablePath: exe, headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--allow-file-access-from-files'] });
  } catch (e) {
    console.log(JSON.stringify({ skip: 'chromium cannot run here: ' + String(e.message).split('\n')[0] }));
    process.exit(77);
  }
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const li = process.argv.indexOf('--loading');
  if (li >= 0) {
    console.log(JSON.stringify(await whileLoading(page, page_path, process.argv[li + 1], BigInt(process.argv[li + 2]), errors)));
    await browser.close();
    return;
  }
  const t0 = Date.now();
  // the page's own ready state is waited for, not the load event (a big
  // page can take longer than goto's default to load on a busy machine)
  await page.goto('file://' + path.resolve(page_path), { waitUntil: 'commit', timeout: 120000 });
  await page.waitForFunction(() => window.tkView && window.tkView.ready, null, { timeout: 120000 });
  const out = { errors };
  if (bench) {
    // first paint: navigation start to the first frame after the data loaded
    out.firstPaintMs = await page.evaluate(() => new Promise((res) => requestAnimationFrame(() =>
      requestAnimationFrame(() => res(window.tkView.firstPaint())))));
    out.wallMs = Date.now() - t0;
    // loadMs: when all the data was read (ms after navigation); pages of
    // an older tracekit gave the script's own time as a number instead
    out.loadMs = await page.evaluate(() => (typeof window.tkView.loadMs === 'function'
      ? window.tkView.loadMs() : performance.timing.domContentLoadedEventEnd - performance.timing.navigationStart));
    out.startMs = await page.evaluate(() => window.tkView.startMs);
    out.firstFrame = await page.evaluate(() => window.tkView.firstFrame && window.tkView.firstFrame());
    // pan/zoom frames measured in the page
    out.frames = await page.evaluate(() => {
      const v = window.tkView, st = v.state, res = [];
      const span = v.model.span;
      const widths = [span, span / 10, span / 1000, span / 1e5];
      for (const w of widths) for (let k = 0; k < 10; k++) {
        const c = span * (0.1 + 0.08 * k);
        const a = performance.now();
        v.setWindow(c - w / 2, c + w / 2);
        res.push({ width: w, ms: performance.now() - a, rows: st.frameStats.rows, rects: st.frameStats.rects });
      }
      return res;
    });
    await page.screenshot({ path: path.join(outdir, 'bench.png') });
    console.log(JSON.stringify(out));
    await browser.close();
    return;
  }
  // the first view: the whole trace from its first event, as the ruler says
  out.initial = await page.evaluate(() => window.tkView.window());
  out.initialRuler = await page.evaluate(() => window.tkView.ruler());
  await page.screenshot({ path: path.join(outdir, 'initial.png') });
  if (process.argv.includes('--counters')) {
    // the counter tracks as the page holds them (absolute times), and a
    // hover over the middle sample of each: its tooltip's value
    out.counters = await page.evaluate(() => {
      const v = window.tkView, m = v.model;
      return m.tracks.map((t, i) => ({ t, i })).filter((x) => x.t.kind === 'counter').map(({ t, i }) => {
        const row = t.rows[0];
        return { track: i, name: t.name, n: row.n, group: m.groups[t.group].name,
          values: Array.from(row.value), times: Array.from(row.t, (x) => TK.absNs(m.t0, x).toString()) };
      });
    });
    for (const c of out.counters) {
      const mid = Math.floor(c.n / 2);
      const pos = await page.evaluate((a) => {
        const v = window.tkView, row = v.model.tracks[a.track].rows[0], t = row.t[a.i];
        const gap = Math.min(a.i > 0 ? t - row.t[a.i - 1] : 1e6, a.i + 1 < row.n ? row.t[a.i + 1] - t : 1e6);
        v.setWindow(t - Math.max(gap, 100) * 4, t + Math.max(gap, 100) * 4);
        const p = v.entryPosition(a.track, a.i);
        return { x: p.x + 1, y: p.y };
      }, { track: c.track, i: mid });
      await page.mouse.move(pos.x, pos.y);
      c.hover = { i: mid, tooltip: await page.$eval('#tooltip', (e) => (e.hidden ? null : e.textContent)) };
    }
    await page.screenshot({ path: path.join(outdir, 'counters.png') });
    console.log(JSON.stringify(out));
    await browser.close();
    return;
  }
  // touching spans of one name (CPEL states): zoomed in on up to 8 of
  // them, the pixels across their row show one bar per span (runs of
  // non-white pixels), not one bar for all
  out.spanGaps = await page.evaluate(() => {
    const v = window.tkView, m = v.model, canvas = document.getElementById('timeline');
    for (const row of m.rows) {
      if (row.kind !== 'spans') continue;
      let i = 0;
      while (i + 2 < row.n && !(row.end[i] === row.t[i + 1] && row.end[i + 1] === row.t[i + 2] &&
        row.name[i] === row.name[i + 1] && row.name[i + 1] === row.name[i + 2])) i++;
      if (i + 2 >= row.n) continue;
      let k = i + 1;
      while (k < row.n && k - i < 8 && row.t[k] === row.end[k - 1] && row.name[k] === row.name[i]) k++;
      v.setWindow(row.t[i], row.end[k - 1]);
      const pos = v.entryPosition(row.track, i, row.depth), r = canvas.getBoundingClientRect();
      const dpr = window.devicePixelRatio || 1, x0 = Math.ceil(TK.LABEL_W * dpr);
      const px = canvas.getContext('2d').getImageData(x0, Math.floor((pos.y - r.top) * dpr), canvas.width - x0, 1).data;
      let runs = 0, inBar = false;
      for (let p = 0; p < px.length; p += 4) {
        const bar = Math.min(px[p], px[p + 1], px[p + 2]) < 240;
        if (bar && !inBar) runs++;
        inBar = bar;
      }
      const w = v.state.v1 - v.state.v0, cw = r.width - TK.LABEL_W;
      let minPx = Infinity;
      for (let j = i; j < k; j++) minPx = Math.min(minPx, (row.end[j] - row.t[j]) / w * cw);
      return { track: row.track, name: m.strings[row.name[i]], first: i, spans: k - i, runs, minPx };
    }
    return null;
  });
  await page.screenshot({ path: path.join(outdir, 'span-gaps.png') });
  // the time toggle: trace-relative, then the trace's clock (wall clock
  // when it counts from the epoch), then back
  out.timeMode = { rel: await page.$eval('#range', (e) => e.textContent) };
  await page.click('#timemode');
  out.timeMode.abs = await page.$eval('#range', (e) => e.textContent);
  out.timeMode.button = await page.$eval('#timemode', (e) => e.textContent);
  await page.click('#timemode');
  // what the track list shows
  out.tracks = await page.$$eval('#tab-tracks .trk', (els) => els.map((e) => ({
    name: e.querySelector('.tname').textContent, kind: e.querySelector('.tkind').textContent,
    count: +e.querySelector('.tcount').textContent, tid: +e.dataset.tid,
    group: (() => { let p = e.previousElementSibling; while (p && !p.classList.contains('grp')) p = p.previousElementSibling; return p ? p.textContent.slice(2) : ''; })()
  })));
  const table = (id) => page.$$eval('#' + id + ' tr', (rows) => rows.slice(1).map((r) =>
    Array.from(r.querySelectorAll('td')).map((td) => td.textContent)));
  out.whole = { names: await table('stats-names'), tracks: await table('stats-tracks'), cpus: await table('stats-cpus'),
    spanNames: await table('stats-span-names'), spanTracks: await table('stats-span-tracks'),
    total: await page.$eval('#stats-total', (e) => +e.textContent) };
  out.title = await page.title();
  out.wholeFlame = await page.evaluate(() => ({ samples: window.tkView.flame().samples, weight: window.tkView.flame().weight }));
  // click an event: the track with most events, its middle entry
  const target = await page.evaluate(() => {
    const m = window.tkView.model;
    let best = -1;
    // an events track (with samples, if any), else any but a counter
    const rank = (t) => (t.kind === 'events' ? 2 : t.kind === 'spans' ? 1 : 0);
    m.tracks.forEach((t, i) => {
      if (t.kind === 'counter') return;
      if (best < 0 || rank(t) > rank(m.tracks[best]) || (rank(t) === rank(m.tracks[best]) && t.n > m.tracks[best].n)) best = i;
    });
    const row = m.tracks[best].rows[0];
    const i = Math.floor(row.n / 2);
    // zoom so the entry stands alone
    const t = row.t[i];
    const prev = i > 0 ? row.t[i - 1] : t - 1000, next = i + 1 < row.n ? row.t[i + 1] : t + 1000;
    const w = Math.max(Math.min(t - prev, next - t) * 20, 100);
    window.tkView.setWindow(t - w / 2, t + w / 2);
    return { track: best, i, name: m.strings[row.name[i]], t, trackName: m.tracks[best].name,
      abs: (m.t0 + BigInt(Math.round(t))).toString() };
  });
  const pos = await page.evaluate((a) => window.tkView.entryPosition(a.track, a.i), target);
  await page.mouse.move(pos.x, pos.y);
  out.tooltip = await page.$eval('#tooltip', (e) => (e.hidden ? null : e.textContent));
  await page.mouse.click(pos.x, pos.y);
  out.clicked = target;
  out.picked = await page.evaluate(() => window.tkView.picked());
  out.details = await page.$$eval('#details-table tr', (rows) => Object.fromEntries(rows.map((r) =>
    [r.children[0].textContent, r.children[1].textContent])));
  out.stack = await page.$$eval('#details-stack li', (els) => els.map((e) => e.textContent));
  await page.screenshot({ path: path.join(outdir, 'details.png') });
  // g2's chase: ] the next event of the same name on the track, [ back
  await page.focus('#timeline');
  await page.keyboard.press(']');
  out.chaseNext = await page.evaluate(() => window.tkView.picked());
  await page.keyboard.press('[');
  out.chaseBack = await page.evaluate(() => window.tkView.picked());
  // . the next event on the track (any name), , back; > the next with the
  // same fields on any track. Expected: the least (time, row, index) after
  // the picked one, found by brute force over every entry.
  const expectAfter = (a, by) => page.evaluate(({ a, by }) => {
    const m = window.tkView.model, r0 = m.tracks[a.track].rows[0], t0 = r0.t[a.i], arg = r0.arg ? r0.arg[a.i] : 0;
    if (by === 'datum' && !arg) return null;
    let best = null;
    const rows = by === 'track' ? m.tracks[a.track].rows : m.rows;
    for (const row of rows) {
      if (!row.name) continue;
      for (let i = 0; i < row.n; i++) {
        if (by === 'datum' && (!row.arg || row.arg[i] !== arg)) continue;
        const t = row.t[i];
        const after = t > t0 || (t === t0 && (row.index > r0.index || (row === r0 && i > a.i)));
        if (!after) continue;
        if (!best || t < best.t || (t === best.t && (row.index < best.row || (row.index === best.row && i < best.i))))
          best = { t, row: row.index, track: row.track, i };
      }
    }
    return best && { track: best.track, i: best.i };
  }, { a, by });
  const start = out.chaseBack;
  if (start) {
    out.chaseTrack = { expect: await expectAfter(start, 'track') };
    await page.keyboard.press('.');
    out.chaseTrack.got = await page.evaluate(() => window.tkView.picked());
    await page.keyboard.press(',');
    out.chaseTrack.back = await page.evaluate(() => window.tkView.picked());
    out.chaseDatum = { expect: await expectAfter(start, 'datum') };
    await page.keyboard.press('>');
    out.chaseDatum.got = await page.evaluate(() => window.tkView.picked());
    await page.keyboard.press('<');
    out.chaseDatum.back = await page.evaluate(() => window.tkView.picked());
  }
  out.expectNext = await page.evaluate((a) => {
    const m = window.tkView.model, row = m.tracks[a.track].rows[0];
    for (let j = a.i + 1; j < row.n; j++) if (row.name[j] === row.name[a.i]) return j;
    return a.i;
  }, out.picked || target);
  // search by name: Enter twice goes to the first then the second match
  await page.fill('#search', target.name);
  await page.focus('#search');
  await page.keyboard.press('Enter');
  out.search = { info: await page.$eval('#search-info', (e) => e.textContent),
    matches: await page.evaluate(() => window.tkView.state.matches.length) };
  // keys: whole trace, then W x5 (zoom in around the centre: the mouse is
  // moved onto the ruler's label, outside the data), D (pan), Home
  const tl = await page.$eval('#timeline', (e) => { const r = e.getBoundingClientRect(); return { x: r.left, y: r.top }; });
  await page.mouse.move(tl.x + 5, tl.y + 5);
  await page.focus('#timeline');
  await page.keyboard.press('0');
  out.keys = { start: await page.evaluate(() => window.tkView.window()) };
  for (let k = 0; k < 5; k++) await page.keyboard.press('w');
  out.keys.zoomed = await page.evaluate(() => window.tkView.window());
  await page.keyboard.press('d');
  out.keys.panned = await page.evaluate(() => window.tkView.window());
  await page.keyboard.press('Home');
  out.keys.home = await page.evaluate(() => window.tkView.window());
  await page.keyboard.press('End');
  out.keys.end = await page.evaluate(() => window.tkView.window());
  out.span = await page.evaluate(() => window.tkView.model.span);
  out.epoch = await page.evaluate(() => window.tkView.model.epoch);
  // drag a selection over the middle half of the whole trace
  await page.keyboard.press('0');
  const box = await page.$eval('#timeline', (e) => { const r = e.getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width, h: r.height }; });
  const lw = await page.evaluate(() => TK.LABEL_W);
  const xa = box.x + lw + (box.w - lw) * 0.25, xb = box.x + lw + (box.w - lw) * 0.75, y = box.y + 60;
  await page.mouse.move(xa, y);
  await page.mouse.down();
  await page.mouse.move((xa + xb) / 2, y, { steps: 4 });
  await page.mouse.move(xb, y, { steps: 4 });
  await page.mouse.up();
  out.selection = await page.evaluate(() => window.tkView.selection());
  out.sel = { names: await table('stats-names'), tracks: await table('stats-tracks'), cpus: await table('stats-cpus'),
    spanNames: await table('stats-span-names'), spanTracks: await table('stats-span-tracks'),
    total: await page.$eval('#stats-total', (e) => +e.textContent) };
  // the selection's bounds in the statistics, as the ruler shows times
  // (relative, then the trace's clock), the other form in the tooltip
  const rangeText = () => page.$eval('#stats-range', (e) => ({ text: e.textContent, title: e.title,
    ruler: window.tkView.ruler().map((r) => r.text) }));
  out.selRange = { rel: await rangeText() };
  await page.click('#timemode');
  out.selRange.abs = await rangeText();
  await page.click('#timemode');
  await page.screenshot({ path: path.join(outdir, 'selection.png') });
  // Z zooms to the selection (the README's screenshot, docs/view.png, is
  // this one from the perf test)
  await page.focus('#timeline');
  await page.keyboard.press('z');
  out.zoomedToSelection = await page.evaluate(() => window.tkView.window());
  await page.evaluate(() => { window.tkView.state.scrollY = 0; window.tkView.drawNow(); });
  await page.screenshot({ path: path.join(outdir, 'zoomed.png') });
  await page.click('#tabs button[data-tab=flame]');
  out.flameInfo = await page.$eval('#flame-info', (e) => e.textContent);
  out.flame = await page.evaluate(() => window.tkView.flame());
  out.flame.symbols = (out.flame.symbols || []).slice(0, 50);
  out.flameLayout = await page.evaluate(() => window.tkView.flameLayout());
  await page.screenshot({ path: path.join(outdir, 'flame.png') });
  // click-to-zoom: click the widest frame below the root
  const rect = await page.evaluate(() => {
    const c = document.getElementById('flame').getBoundingClientRect();
    return { x: c.left, y: c.top, w: c.width, h: c.height };
  });
  if (out.flame.samples > 0) {
    // as an icicle (root on top, in view): click depth 1 in the middle
    await page.check('#flame-icicle');
    await page.mouse.click(rect.x + rect.w / 2, rect.y + 16 + 8);
    out.flameZoom = await page.$eval('#flame-info', (e) => e.textContent);
    out.flameFocus = await page.evaluate(() => window.tkView.flameFocus());
    await page.screenshot({ path: path.join(outdir, 'icicle.png') });
  }
  // the URL fragment keeps the view: reload and compare
  await page.keyboard.press('b');
  await page.waitForTimeout(400);
  const before = await page.evaluate(() => window.tkView.window());
  await page.reload({ waitUntil: 'commit', timeout: 120000 });
  await page.waitForFunction(() => window.tkView && window.tkView.ready);
  const after = await page.evaluate(() => window.tkView.window());
  out.reopened = { before, after, hash: await page.evaluate(() => location.hash) };
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.click('#tabs button[data-tab=tracks]');
  out.errors = errors;
  console.log(JSON.stringify(out));
  await browser.close();
}
// --loading TRACK ABS_NS: the page served over HTTP up to the end of the
// columns of TRACK's first row, then held (the rest, other rows, the
// details, follow only when released): while the page is still loading,
// a click on TRACK's event at ABS_NS (zoomed so it stands alone) and a
// search for its name; then the rest, and what the complete data say.
async function whileLoading(page, pagePath, trackName, absNs, errors) {
  const http = require('http');
  const html = fs.readFileSync(pagePath);
  const text = html.toString('latin1');
  const mm = /<script type="application\/json" id="tk-meta">(.*?)<\/script>/s.exec(text);
  const meta = JSON.parse(Buffer.from(mm[1], 'latin1').toString('utf8'));
  const ti = meta.tracks.findIndex((t) => t.name === trackName && t.kind === 'events');
  if (ti < 0) throw new Error('no events track ' + trackName);
  // the end of the element of the row's last column (arrays come in order)
  const last = Math.max(...Object.values(meta.tracks[ti].rows[0].cols).filter((i) => i >= 0 && meta.arrays[i].parts));
  const lastId = 'tk-a' + last + '-' + (meta.arrays[last].parts - 1);
  const at = text.indexOf('id="' + lastId + '"');
  const cut = text.indexOf('</script>\n', at) + '</script>\n'.length;
  const appAt = text.indexOf('window.tkView');
  if (at < appAt) throw new Error(trackName + "'s row is written before the page's script: not a loading test");
  let release;
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    // a comment after the cut closes the last element for the parser
    res.write(html.subarray(0, cut));
    res.write('<!--held-->');
    release = () => res.end(html.subarray(cut));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const out = { errors, track: ti, trackName, absNs: absNs.toString(), lateAfterCut: text.indexOf('id="tk-a', cut) > 0 };
  await page.goto('http://127.0.0.1:' + server.address().port + '/view.html', { waitUntil: 'commit', timeout: 120000 });
  await page.waitForFunction((id) => window.tkView && document.getElementById(id) &&
    document.getElementById(id).nextSibling, lastId, { timeout: 120000 });
  const rel = Number(absNs - BigInt(meta.t0));
  // zoom on the event: 50 us either side
  const geo = await page.evaluate((a) => {
    const v = window.tkView;
    v.setWindow(a.rel - 50000, a.rel + 50000);
    const c = document.getElementById('timeline').getBoundingClientRect();
    const y = v.entryPosition(a.track, 0).y; /* scrolls the track into view */
    return { x: c.left + TK.LABEL_W + (a.rel - v.state.v0) / (v.state.v1 - v.state.v0) * (c.width - TK.LABEL_W), y,
      v0: v.state.v0, v1: v.state.v1, complete: v.model.complete, readyState: document.readyState, pendingBefore: v.model.tracks[a.track].rows[0].pending };
  }, { rel, track: ti });
  out.before = geo;
  await page.mouse.move(geo.x, geo.y);
  out.tooltip = await page.$eval('#tooltip', (e) => (e.hidden ? null : e.textContent));
  await page.mouse.click(geo.x, geo.y);
  out.picked = await page.evaluate(() => window.tkView.picked());
  out.details = await page.$$eval('#details-table tr', (rows) => Object.fromEntries(rows.map((r) =>
    [r.children[0].textContent, r.children[1].textContent])));
  if (out.picked) {
    await page.fill('#search', out.picked.name);
    await page.focus('#search');
    await page.keyboard.press('Enter');
    out.search = await page.evaluate(() => ({ info: document.getElementById('search-info').textContent,
      matches: window.tkView.state.matches.length,
      window: [window.tkView.state.v0, window.tkView.state.v1],
      tooltipHidden: document.getElementById('tooltip').hidden,
      rows: window.tkView.model.rows.filter((r) => !r.pending).map((r) => r.index) }));
  }
  out.during = await page.evaluate(() => ({ complete: window.tkView.model.complete, readyState: document.readyState }));
  await page.screenshot({ path: path.join(path.dirname(pagePath), 'loading.png') });
  release();
  await page.waitForFunction(() => window.tkView.ready, null, { timeout: 120000 });
  // the complete data: the picked entry's time, and the entries of the
  // searched name in the rows that were read then (brute force)
  out.after = await page.evaluate((a) => {
    const v = window.tkView, m = v.model, q = a.name.toLowerCase();
    let count = 0;
    for (const ri of a.rows) {
      const row = m.rows[ri];
      for (let i = 0; i < row.n; i++) if (m.strings[row.name[i]].toLowerCase().includes(q)) count++;
    }
    const row = m.tracks[a.track].rows[0];
    return { pickedTime: a.i >= 0 ? row.t[a.i] : null, pickedName: a.i >= 0 ? m.strings[row.name[a.i]] : null,
      expectMatches: count, allRows: m.rows.length, searchInfo: document.getElementById('search-info').textContent };
  }, { track: ti, i: out.picked ? out.picked.i : -1, name: out.picked ? out.picked.name : '', rows: out.search ? out.search.rows : [] });
  out.rel = rel;
  server.close();
  return out;
}
main().catch((e) => { console.error(e); process.exit(1); });
