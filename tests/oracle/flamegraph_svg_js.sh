#!/usr/bin/env bash
# The flame graph SVG's script, run by node over a minimal DOM built from
# the SVG (python3 xml.etree): clicking a frame zooms to it (it spans the
# drawing width, its descendants scale with it, its ancestors stay as
# full-width "parent" frames, everything else is hidden; labels fit their
# frames), Escape restores the original geometry, and Search colours the
# frames whose names match and reports the matched share, which must equal
# the share of the folded weights whose stacks hold a matching frame.
# Skipped (77) without node.
set -u
: "${TK:?}" "${TK_SOURCE_DIR:?}" "${TK_TESTDATA:?}"
if ! command -v node >/dev/null; then echo "SKIP: node is not installed"; exit 77; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0; checked=0

cat >"$work/run.js" <<'JS'
"use strict";
const fs = require("fs");
const data = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const label = process.argv[3];
class El {
  constructor(tag, attrs, parent, text) {
    this.nodeName = tag; this.attrs = Object.assign({}, attrs); this.children = [];
    this.parentElement = parent || null; this.id = this.attrs.id || "";
    this.cls = new Set((this.attrs["class"] || "").split(/\s+/).filter(Boolean));
    this.textContent = text || ""; this.firstChild = { nodeValue: text || "" };
    if (parent) parent.children.push(this);
  }
  get classList() {
    const s = this.cls;
    return { add: c => s.add(c), remove: c => s.delete(c), contains: c => s.has(c) };
  }
  getAttribute(a) { return a in this.attrs ? String(this.attrs[a]) : null; }
  setAttribute(a, v) { this.attrs[a] = String(v); }
  hasAttribute(a) { return a in this.attrs; }
  getElementsByTagName(t) {
    const out = [];
    const walk = e => { for (const c of e.children) { if (c.nodeName === t) out.push(c); walk(c); } };
    walk(this);
    return out;
  }
}
const svg = new El("svg", {});
svg.width = { baseVal: { value: data.width } };
const byId = {};
for (const t of data.texts) byId[t.id] = new El("text", t.attrs, svg, t.text);
const framesEl = new El("g", { id: "frames" }, svg);
byId.frames = framesEl;
const frames = data.frames.map(f => {
  const g = new El("g", {}, framesEl);
  new El("title", {}, g, f.title);
  const r = new El("rect", f.rect, g);
  const t = new El("text", f.textattrs, g, f.text);
  return { g, r, t, x: +f.rect.x, w: +f.rect.width, y: +f.rect.y, name: f.name, fill: f.rect.fill };
});
const handlers = {};
const window = { addEventListener: (ev, fn) => { handlers[ev] = fn; } };
const document = {
  getElementById: id => byId[id] || null,
  getElementsByTagName: t => (t === "svg" ? [svg] : svg.getElementsByTagName(t)),
};
let promptAnswer = null;
const api = new Function("window", "document", "prompt", "alert",
  data.script + "\n;return { init: init };")(window, document, () => promptAnswer,
  m => { throw new Error("alert: " + m); });
const errors = [];
const near = (a, b) => Math.abs(a - b) < 1e-3;
api.init({});
const full = data.width - 20;
// zoom
const F = frames[data.zoom];
handlers.click({ target: F.r, ctrlKey: false, preventDefault() {} });
const ratio = full / F.w;
for (const f of frames) {
  const x = +f.r.getAttribute("x"), w = +f.r.getAttribute("width");
  const inside = f.y <= F.y && f.x >= F.x - 1e-6 && f.x + f.w <= F.x + F.w + 1e-6;
  const ancestor = f.y > F.y && f.x <= F.x + 1e-6 && f.x + f.w >= F.x + F.w - 1e-6;
  if (inside) {
    if (f.g.cls.has("hide") || !near(x, 10 + (f.x - F.x) * ratio) || !near(w, f.w * ratio))
      errors.push("zoom: frame " + f.name + " at " + x + "+" + w);
  } else if (ancestor) {
    if (!f.g.cls.has("parent") || !near(x, 10) || !near(w, full))
      errors.push("zoom: ancestor " + f.name + " not full width");
  } else if (!f.g.cls.has("hide")) {
    errors.push("zoom: frame " + f.name + " outside the zoomed one is shown");
  }
  const room = Math.floor((w - 3) / (12 * 0.59));
  if (!f.g.cls.has("hide") && f.t.textContent.length > Math.max(room, 0))
    errors.push("zoom: label of " + f.name + " does not fit");
}
if (byId.unzoom.cls.has("hide")) errors.push("zoom: Reset Zoom is hidden");
// Escape: back to the original geometry
handlers.keydown({ keyCode: 27, ctrlKey: false, preventDefault() {} });
for (const f of frames)
  if (f.g.cls.has("hide") || f.g.cls.has("parent") || !near(+f.r.getAttribute("x"), f.x) ||
      !near(+f.r.getAttribute("width"), f.w))
    errors.push("unzoom: frame " + f.name + " not restored");
// search
promptAnswer = data.term;
handlers.click({ target: byId.search, ctrlKey: false, preventDefault() {} });
const re = new RegExp(data.term);
for (const f of frames) {
  const purple = f.r.getAttribute("fill") === "rgb(230,0,230)";
  if (purple !== re.test(f.name)) errors.push("search: frame " + f.name + (purple ? " coloured" : " not coloured"));
}
const m = /^Matched: ([0-9.]+)%$/.exec(byId.matched.textContent);
if (!m || Math.abs(+m[1] - data.matched) > 0.1 + 1e-9)
  errors.push("search: '" + byId.matched.textContent + "', folded gives " + data.matched.toFixed(2) + "%");
handlers.click({ target: byId.search, ctrlKey: false, preventDefault() {} });
for (const f of frames)
  if (f.r.getAttribute("fill") !== f.fill) errors.push("reset search: " + f.name + " keeps its colour");
for (const e of errors.slice(0, 10)) console.log("FAIL " + label + ": " + e);
if (!errors.length)
  console.log("ok " + label + ": zoomed to '" + F.name + "', search /" + data.term + "/ matched " + m[1] + "%");
process.exit(errors.length ? 1 : 0);
JS

check() { # perf.data label
  local in=$1 label=$2
  if ! "$TK" convert -q "$in" -o "$work/p.svg" 2>"$work/err" ||
     ! "$TK" convert -q "$in" -o "$work/p.folded" 2>>"$work/err"; then
    echo "FAIL $label: convert: $(head -3 "$work/err")"; failed=1; return
  fi
  if ! /usr/bin/python3 - "$work/p.svg" "$work/p.folded" "$work/dom.json" <<'PY'; then
import json, re, sys
import xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
out = {"width": float(root.get("width")), "texts": [], "frames": []}
out["script"] = root.find(NS + "script").text
for t in root.findall(NS + "text"):
    out["texts"].append({"id": t.get("id"), "attrs": dict(t.attrib), "text": t.text or ""})
group = [g for g in root.iter(NS + "g") if g.get("id") == "frames"][0]
for g in group:
    title = g.find(NS + "title").text
    name = re.match(r"^(.*) \(\d+ period, [\d.]+%\)$", title, re.S).group(1)
    t = g.find(NS + "text")
    out["frames"].append({"title": title, "name": name, "rect": dict(g.find(NS + "rect").attrib),
                          "textattrs": dict(t.attrib), "text": t.text or ""})
# zoom to the narrower-than-full frame holding the most others
full = out["width"] - 20
def geo(f):
    return float(f["rect"]["x"]), float(f["rect"]["width"]), float(f["rect"]["y"])
best, best_n = None, -1
for i, f in enumerate(out["frames"]):
    x, w, y = geo(f)
    if w > full - 1:
        continue
    n = sum(1 for o in out["frames"] if geo(o)[2] < y and geo(o)[0] >= x - 1e-6 and geo(o)[0] + geo(o)[1] <= x + w + 1e-6)
    if n > best_n:
        best, best_n = i, n
if best is None:
    sys.exit(2)
out["zoom"] = best
# search for the zoomed frame's name; the folded share of stacks holding it
name = out["frames"][best]["name"]
out["term"] = "^" + re.escape(name).replace("\\ ", " ") + "$"
total = hit = 0
for line in open(sys.argv[2], encoding="utf-8", errors="surrogateescape"):
    stack, _, w = line.rstrip("\n").rpartition(" ")
    total += int(w)
    if name in stack.split(";"):
        hit += int(w)
out["matched"] = 100.0 * hit / total
json.dump(out, open(sys.argv[3], "w"))
PY
    echo "FAIL $label: no frame to zoom to"; failed=1; return
  fi
  if node "$work/run.js" "$work/dom.json" "$label"; then checked=$((checked + 1)); else failed=1; fi
}

for f in pdc/with-callchain.perf.data perfparser/vector_static_gcc__perf.data lpd/fibo.compressed2.pipe.data; do
  [ -f "$TK_TESTDATA/perf/$f" ] && check "$TK_TESTDATA/perf/$f" "$f"
done
[ "$checked" -gt 0 ] || { echo "FAIL: nothing checked"; exit 1; }
exit $failed
