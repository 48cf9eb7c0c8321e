/* An interactive flame graph SVG drawn as FlameGraph's flamegraph.pl
 * draws folded stacks (default options: 1200 px wide, 16 px frames, root
 * at the bottom, frames narrower than 0.1 px left out), with embedded
 * JavaScript for click-to-zoom, search (regexp) and details on hover.
 * Widths are the stacks' period sums. Names only ever go into XML text,
 * escaped (& < > " ' as entities, control characters and bytes that are
 * not UTF-8 as '?'), so no name can end the script or an attribute; the
 * script reads them back from the DOM. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/folded_stacks.h"

#define IMAGE_WIDTH  1200.0
#define FRAME_HEIGHT 16.0
#define FONT_SIZE    12.0
#define FONT_WIDTH   0.59
#define MIN_WIDTH    0.1
#define XPAD         10.0
#define YPAD1        (FONT_SIZE * 3)
#define YPAD2        (FONT_SIZE * 2 + 10)

/* Length of the valid UTF-8 sequence at p (0: not valid). */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
	size_t len;
	uint32_t min;
	if (p[0] < 0x80)
		return 1;
	if ((p[0] & 0xe0) == 0xc0)
		len = 2, min = 0x80;
	else if ((p[0] & 0xf0) == 0xe0)
		len = 3, min = 0x800;
	else if ((p[0] & 0xf8) == 0xf0)
		len = 4, min = 0x10000;
	else
		return 0;
	if (len > n)
		return 0;
	uint32_t cp = p[0] & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe ||
	    cp == 0xffff)
		return 0;
	return len;
}

/* s as XML text, at most max_chars characters (then ".." ends it). */
static void put_xml(tk_writer *w, const char *s, size_t max_chars)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), chars = 0;
	for (size_t i = 0; i < n; chars++)
		i += utf8_seq(p + i, n - i) ? utf8_seq(p + i, n - i) : 1;
	size_t keep = chars > max_chars ? (max_chars >= 2 ? max_chars - 2 : 0) : chars;
	size_t i = 0;
	for (size_t c = 0; c < keep && i < n; c++) {
		size_t len = utf8_seq(p + i, n - i);
		unsigned char ch = p[i];
		if (len > 1) {
			tk_put_mem(w, p + i, len);
			i += len;
			continue;
		}
		i++;
		if (!len || (ch < 0x20 && ch != '\t') || ch == 0x7f)
			tk_put_char(w, '?');
		else if (ch == '&')
			tk_put_str(w, "&amp;");
		else if (ch == '<')
			tk_put_str(w, "&lt;");
		else if (ch == '>')
			tk_put_str(w, "&gt;");
		else if (ch == '"')
			tk_put_str(w, "&quot;");
		else if (ch == '\'')
			tk_put_str(w, "&apos;");
		else
			tk_put_char(w, (char)ch);
	}
	if (keep < chars)
		tk_put_str(w, "..");
}

/* flamegraph.pl's "hot" palette, from a hash of the name so the same
 * profile draws the same colours. */
static void put_color(tk_writer *w, const char *name)
{
	uint64_t h = 1469598103934665603ull;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 1099511628211ull;
	double v1 = (double)(h & 0xffff) / 65536.0, v2 = (double)((h >> 16) & 0xffff) / 65536.0,
	       v3 = (double)((h >> 32) & 0xffff) / 65536.0;
	tk_put_fmt(w, "rgb(%d,%d,%d)", (int)(205 + 50 * v3), (int)(230 * v1), (int)(55 * v2));
}

typedef struct layout {
	double height, per_weight;
	uint64_t total;
} layout;

static void put_frame(tk_writer *w, const layout *l, size_t depth, const char *name, uint64_t start,
		      uint64_t end)
{
	double width = (double)(end - start) * l->per_weight;
	if (width < MIN_WIDTH)
		return;
	double x = XPAD + (double)start * l->per_weight;
	double y = l->height - YPAD2 - (double)(depth + 1) * FRAME_HEIGHT + 1;
	tk_put_str(w, "<g><title>");
	put_xml(w, name, SIZE_MAX);
	tk_put_fmt(w,
		   " (%llu period, %.2f%%)</title><rect x=\"%.4f\" y=\"%.1f\" width=\"%.4f\" "
		   "height=\"%.1f\" fill=\"",
		   (unsigned long long)(end - start),
		   100.0 * (double)(end - start) / (double)l->total, x, y, width, FRAME_HEIGHT - 1);
	put_color(w, name);
	tk_put_fmt(w, "\" rx=\"2\" ry=\"2\"/><text x=\"%.2f\" y=\"%.1f\">", x + 3, y + 10.5);
	double room = width - 3;
	if (room >= 2 * FONT_SIZE * FONT_WIDTH)
		put_xml(w, name, (size_t)(room / (FONT_SIZE * FONT_WIDTH)));
	tk_put_str(w, "</text></g>\n");
}

static const char script[] =
    "<script type=\"text/ecmascript\"><![CDATA[\n"
    "\"use strict\";\n"
    "var XPAD = 10, FONTW = 12 * 0.59, details, searchbtn, unzoombtn, matchedtxt, svg, "
    "frames, searching = false;\n"
    "function init(evt) {\n"
    "  details = document.getElementById(\"details\").firstChild;\n"
    "  searchbtn = document.getElementById(\"search\");\n"
    "  unzoombtn = document.getElementById(\"unzoom\");\n"
    "  matchedtxt = document.getElementById(\"matched\");\n"
    "  svg = document.getElementsByTagName(\"svg\")[0];\n"
    "  frames = document.getElementById(\"frames\");\n"
    "}\n"
    "function find_group(node) {\n"
    "  while (node && node.parentElement) {\n"
    "    if (node.parentElement.id == \"frames\") return node;\n"
    "    node = node.parentElement;\n"
    "  }\n"
    "  return null;\n"
    "}\n"
    "function g_title(g) { return g.getElementsByTagName(\"title\")[0].textContent; }\n"
    "function g_name(g) { return g_title(g).replace(/ \\([0-9]+ period, [0-9.]+%\\)$/, \"\"); }\n"
    "function orig(r, a) {\n"
    "  if (!r.hasAttribute(\"data-o\" + a)) r.setAttribute(\"data-o\" + a, r.getAttribute(a));\n"
    "  return parseFloat(r.getAttribute(\"data-o\" + a));\n"
    "}\n"
    "function update_text(g) {\n"
    "  var r = g.getElementsByTagName(\"rect\")[0], t = g.getElementsByTagName(\"text\")[0];\n"
    "  var w = parseFloat(r.getAttribute(\"width\")) - 3, name = g_name(g);\n"
    "  t.setAttribute(\"x\", parseFloat(r.getAttribute(\"x\")) + 3);\n"
    "  if (w < 2 * FONTW) { t.textContent = \"\"; return; }\n"
    "  var n = Math.floor(w / FONTW);\n"
    "  t.textContent = name.length > n ? name.substring(0, n - 2) + \"..\" : name;\n"
    "}\n"
    "function zoom(g) {\n"
    "  var r = g.getElementsByTagName(\"rect\")[0];\n"
    "  var xmin = orig(r, \"x\"), width = orig(r, \"width\"), y = "
    "parseFloat(r.getAttribute(\"y\"));\n"
    "  var full = svg.width.baseVal.value - 2 * XPAD, ratio = full / width, eps = 1e-6;\n"
    "  unzoombtn.classList.remove(\"hide\");\n"
    "  var el = frames.children;\n"
    "  for (var i = 0; i < el.length; i++) {\n"
    "    var e = el[i], a = e.getElementsByTagName(\"rect\")[0];\n"
    "    var ex = orig(a, \"x\"), ew = orig(a, \"width\"), ey = "
    "parseFloat(a.getAttribute(\"y\"));\n"
    "    e.classList.remove(\"parent\"); e.classList.remove(\"hide\");\n"
    "    if (ey > y) {\n"
    "      if (ex <= xmin + eps && ex + ew >= xmin + width - eps) {\n"
    "        e.classList.add(\"parent\");\n"
    "        a.setAttribute(\"x\", XPAD); a.setAttribute(\"width\", full);\n"
    "      } else e.classList.add(\"hide\");\n"
    "    } else if (ex >= xmin - eps && ex + ew <= xmin + width + eps) {\n"
    "      a.setAttribute(\"x\", XPAD + (ex - xmin) * ratio);\n"
    "      a.setAttribute(\"width\", ew * ratio);\n"
    "    } else e.classList.add(\"hide\");\n"
    "    update_text(e);\n"
    "  }\n"
    "}\n"
    "function unzoom() {\n"
    "  unzoombtn.classList.add(\"hide\");\n"
    "  var el = frames.children;\n"
    "  for (var i = 0; i < el.length; i++) {\n"
    "    var e = el[i], a = e.getElementsByTagName(\"rect\")[0];\n"
    "    e.classList.remove(\"parent\"); e.classList.remove(\"hide\");\n"
    "    a.setAttribute(\"x\", orig(a, \"x\")); a.setAttribute(\"width\", orig(a, \"width\"));\n"
    "    update_text(e);\n"
    "  }\n"
    "}\n"
    "function reset_search() {\n"
    "  var el = frames.children;\n"
    "  for (var i = 0; i < el.length; i++) {\n"
    "    var a = el[i].getElementsByTagName(\"rect\")[0];\n"
    "    if (a.hasAttribute(\"data-ofill\")) a.setAttribute(\"fill\", "
    "a.getAttribute(\"data-ofill\"));\n"
    "  }\n"
    "  searching = false;\n"
    "  searchbtn.textContent = \"Search\";\n"
    "  matchedtxt.textContent = \" \";\n"
    "}\n"
    "function search(term) {\n"
    "  var re;\n"
    "  try { re = new RegExp(term); } catch (err) { alert(\"bad regexp: \" + err.message); return; "
    "}\n"
    "  var el = frames.children, spans = [], full = 0;\n"
    "  for (var i = 0; i < el.length; i++) {\n"
    "    var e = el[i], a = e.getElementsByTagName(\"rect\")[0];\n"
    "    var ex = orig(a, \"x\"), ew = orig(a, \"width\");\n"
    "    if (ew > full) full = ew;\n"
    "    if (!re.test(g_name(e))) continue;\n"
    "    if (!a.hasAttribute(\"data-ofill\")) a.setAttribute(\"data-ofill\", "
    "a.getAttribute(\"fill\"));\n"
    "    a.setAttribute(\"fill\", \"rgb(230,0,230)\");\n"
    "    spans.push([ex, ex + ew]);\n"
    "  }\n"
    "  searching = true;\n"
    "  searchbtn.textContent = \"Reset Search\";\n"
    "  spans.sort(function (p, q) { return p[0] - q[0]; });\n"
    "  var covered = 0, end = -1;\n"
    "  for (var k = 0; k < spans.length; k++) {\n"
    "    var s = Math.max(spans[k][0], end);\n"
    "    if (spans[k][1] > s) covered += spans[k][1] - s;\n"
    "    if (spans[k][1] > end) end = spans[k][1];\n"
    "  }\n"
    "  matchedtxt.textContent = \"Matched: \" + (full ? 100 * covered / full : 0).toFixed(1) + "
    "\"%\";\n"
    "}\n"
    "function search_prompt() {\n"
    "  if (searching) { reset_search(); return; }\n"
    "  var term = prompt(\"Enter a search term (regexp allowed, eg: ^ext4_)\", \"\");\n"
    "  if (term != null && term !== \"\") search(term);\n"
    "}\n"
    "window.addEventListener(\"click\", function (e) {\n"
    "  var g = find_group(e.target);\n"
    "  if (g) { if (g.classList.contains(\"parent\")) unzoom(); zoom(g); }\n"
    "  else if (e.target.id == \"unzoom\") unzoom();\n"
    "  else if (e.target.id == \"search\") search_prompt();\n"
    "}, false);\n"
    "window.addEventListener(\"mouseover\", function (e) {\n"
    "  var g = find_group(e.target);\n"
    "  if (g) details.nodeValue = \"Function: \" + g_title(g);\n"
    "}, false);\n"
    "window.addEventListener(\"mouseout\", function (e) {\n"
    "  if (find_group(e.target)) details.nodeValue = \" \";\n"
    "}, false);\n"
    "window.addEventListener(\"keydown\", function (e) {\n"
    "  if (e.keyCode === 114 || (e.ctrlKey && e.keyCode === 70)) { e.preventDefault(); "
    "search_prompt(); }\n"
    "  else if (e.keyCode === 27) unzoom();\n"
    "}, false);\n"
    "]]></script>\n";

bool tk_flamegraph_svg_put(tk_writer *w, const tk_folded_stacks *s, const char *title)
{
	layout l = {.total = s->total ? s->total : 1};
	l.height = (double)(s->max_depth + 1) * FRAME_HEIGHT + YPAD1 + YPAD2;
	l.per_weight = (IMAGE_WIDTH - 2 * XPAD) / (double)l.total;
	/* open frames of the previous stack: start offsets per depth - 1 */
	uint64_t *start = calloc(s->max_depth ? s->max_depth : 1, sizeof *start);
	if (!start)
		return false;
	tk_put_fmt(w,
		   "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		   "<svg version=\"1.1\" width=\"%.0f\" height=\"%.0f\" onload=\"init(evt)\" "
		   "viewBox=\"0 0 %.0f %.0f\" xmlns=\"http://www.w3.org/2000/svg\" "
		   "xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n",
		   IMAGE_WIDTH, l.height, IMAGE_WIDTH, l.height);
	tk_put_str(w, "<defs><linearGradient id=\"background\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\">"
		      "<stop stop-color=\"#eeeeee\" offset=\"5%\"/><stop stop-color=\"#eeeeb0\" "
		      "offset=\"95%\"/></linearGradient></defs>\n"
		      "<style type=\"text/css\">text { font-family: Verdana, sans-serif; "
		      "font-size: 12px; fill: rgb(0,0,0); } #search, #unzoom { cursor: pointer; } "
		      "#frames > *:hover { stroke: black; stroke-width: 0.5; cursor: pointer; } "
		      ".hide { display: none; } .parent { opacity: 0.5; }</style>\n");
	tk_put_str(w, script);
	tk_put_fmt(
	    w,
	    "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"url(#background)\"/>\n"
	    "<text id=\"title\" x=\"%.0f\" y=\"24\" text-anchor=\"middle\" "
	    "style=\"font-size: 17px\">Flame Graph: ",
	    IMAGE_WIDTH, l.height, IMAGE_WIDTH / 2);
	put_xml(w, title, SIZE_MAX);
	tk_put_str(w, " (");
	put_xml(w, s->event, SIZE_MAX);
	tk_put_fmt(w,
		   ")</text>\n<text id=\"details\" x=\"%.0f\" y=\"%.0f\"> </text>\n"
		   "<text id=\"unzoom\" class=\"hide\" x=\"%.0f\" y=\"24\">Reset Zoom</text>\n"
		   "<text id=\"search\" x=\"%.0f\" y=\"24\">Search</text>\n"
		   "<text id=\"matched\" x=\"%.0f\" y=\"%.0f\"> </text>\n<g id=\"frames\">\n",
		   XPAD, l.height - YPAD2 / 2, XPAD, IMAGE_WIDTH - 110, IMAGE_WIDTH - 110,
		   l.height - YPAD2 / 2);
	/* stacks are sorted frame by frame: a frame shared by adjacent stacks
	 * is one rectangle, closed when a stack no longer has it */
	uint64_t x = 0;
	const tk_folded_stack *prev = NULL;
	for (size_t i = 0; i <= s->n; i++) {
		const tk_folded_stack *cur = i < s->n ? &s->v[i] : NULL;
		size_t common = 0;
		if (prev && cur)
			while (common < prev->n && common < cur->n &&
			       strcmp(prev->frames[common], cur->frames[common]) == 0)
				common++;
		for (size_t d = prev ? prev->n : 0; d-- > common;)
			put_frame(w, &l, d + 1, prev->frames[d], start[d], x);
		if (!cur)
			break;
		for (size_t d = common; d < cur->n; d++)
			start[d] = x;
		x += cur->weight;
		prev = cur;
	}
	put_frame(w, &l, 0, "all", 0, s->total);
	tk_put_str(w, "</g>\n</svg>\n");
	free(start);
	return true;
}
