/* Writes the page: the viewer's template (viewer/index.html) with its CSS
 * and JS in place, the description of the data as JSON, the events'
 * details as JSON objects, one a line (split by the page only when needed)
 * and every column as base64 in its own <script type=application/octet-stream>
 * element (one element per 48 MiB, so no string in the page gets near a
 * browser's string size limit).
 *
 * The page's script comes after the arrays a first frame needs (rows and
 * levels of detail of at most VIEW_EARLY entries, counters) and before
 * the rest and the details: the browser runs it, and draws the whole
 * trace from the levels, while it still reads the bulk of the page.
 *
 * Nothing from the input reaches the page outside JSON text, and the JSON
 * has '<', '>' and '&' written as \u escapes: an event named "</script>"
 * cannot end the element it is in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view/view_internal.h"

#define CHUNK ((size_t)48 << 20) /* a multiple of 3 and of 8 */
/* entries of a row or level written before the script; a level of the
 * size that a whole-trace frame draws (about one entry per pixel) fits */
#define VIEW_EARLY 16384

typedef enum { A_U8, A_U16, A_U32, A_F64, A_U32_AS_U16 } arr_type;

typedef struct arr {
	const uint8_t *p;
	size_t bytes;
	arr_type type;
	bool early; /* written before the page's script */
} arr;

typedef struct arrs {
	arr *v;
	size_t n, cap;
	bool nomem;
} arrs;

static const char *const type_names[] = {"u8", "u16", "u32", "f64", "u16"};
static const size_t type_sizes[] = {1, 2, 4, 8, 4};

static bool all_zero(const view_col *c)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->p[i])
			return false;
	return true;
}

/* Whether every u32 of the column fits 16 bits (then it holds no escape
 * either, and is written as u16: half the bytes). */
static bool fits_u16(const view_col *c)
{
	uint32_t bits = 0;
	for (size_t i = 0; i + 4 <= c->n; i += 4) {
		uint32_t v;
		memcpy(&v, c->p + i, 4);
		bits |= v;
	}
	return bits <= 0xffff;
}

/* Registers a column and writes its index into the JSON; a column of
 * zeros (no CPU known, no details kept) is written as -2 - its length,
 * and the page makes the zeros itself. */
static void put_arr(tk_writer *w, arrs *a, const view_col *c, arr_type type, bool early)
{
	if (c->n >= 64 && type != A_F64 && all_zero(c)) {
		tk_put_i64(w, -2 - (int64_t)(c->n / type_sizes[type]));
		return;
	}
	if (type == A_U32 && fits_u16(c))
		type = A_U32_AS_U16;
	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 64;
		arr *v = realloc(a->v, cap * sizeof *v);
		if (!v) {
			a->nomem = true;
			tk_put_str(w, "-1");
			return;
		}
		a->v = v;
		a->cap = cap;
	}
	a->v[a->n] = (arr){.p = c->p, .bytes = c->n, .type = type, .early = early};
	tk_put_u64(w, a->n++);
}

static void put_str(tk_writer *w, const char *s)
{
	tk_put_json_str(w, s, strlen(s));
}

static void put_key(tk_writer *w, const char *k)
{
	tk_put_char(w, '"');
	tk_put_str(w, k);
	tk_put_lit(w, "\":");
}

/* The interned texts, `sep` between them, each written by `put` (which
 * escapes them for where they go). */
static void put_texts(tk_writer *w, const tk_intern *texts, char sep,
		      void (*put)(tk_writer *, const char *, size_t))
{
	for (size_t i = 0; i < texts->n; i++) {
		if (i)
			tk_put_char(w, sep);
		put(w, texts->v[i].key, texts->v[i].len);
	}
}

static void put_col(tk_writer *w, arrs *a, const char *key, const view_col *c, arr_type type,
		    bool *first, bool early)
{
	if (!*first)
		tk_put_char(w, ',');
	*first = false;
	put_key(w, key);
	put_arr(w, a, c, type, early);
}

static void put_lod(tk_writer *w, arrs *a, const view_row *r, arr_type name_type)
{
	tk_put_lit(w, ",\"lod\":[");
	bool any = false;
	for (int l = 0; l < VIEW_LOD_LEVELS; l++) {
		const view_lod_level *lv = &r->lod.lv[l];
		if (lv->dropped || !lv->n)
			continue;
		if (any)
			tk_put_char(w, ',');
		any = true;
		tk_put_lit(w, "{\"shift\":");
		tk_put_u64(w, VIEW_LOD_SHIFT0 + 2 * (unsigned)l);
		tk_put_lit(w, ",\"n\":");
		tk_put_u64(w, lv->n);
		tk_put_lit(w, ",\"cols\":{");
		bool first = true, e = lv->n <= VIEW_EARLY;
		put_col(w, a, "t", &lv->t, A_U32, &first, e);
		put_col(w, a, "tovf", &lv->tovf, A_F64, &first, e);
		put_col(w, a, "dur", &lv->dur, A_U32, &first, e);
		put_col(w, a, "durovf", &lv->durovf, A_F64, &first, e);
		put_col(w, a, "count", &lv->count, A_U32, &first, e);
		put_col(w, a, "name", &lv->name, name_type, &first, e);
		tk_put_lit(w, "}}");
	}
	tk_put_char(w, ']');
}

static const char *const row_kinds[] = {"events", "spans", "counter"};
static const char *const group_kinds[] = {"process", "cpu", "stream", "cpel", "profile", "counter"};

static void put_row(tk_writer *w, arrs *a, const view_builder *b, const view_row *r,
		    arr_type name_type)
{
	tk_put_lit(w, "{\"depth\":");
	tk_put_u64(w, r->depth);
	tk_put_lit(w, ",\"n\":");
	tk_put_u64(w, r->n);
	tk_put_lit(w, ",\"first\":");
	/* rows of events without a time (all at 0) start with the trace */
	tk_put_u64(w, r->have_first && r->first > b->t0 ? r->first - b->t0 : 0);
	tk_put_lit(w, ",\"cols\":{");
	bool first = true, e = r->n <= VIEW_EARLY || r->kind == VIEW_ROW_COUNTER;
	put_col(w, a, "t", &r->t, A_U32, &first, e);
	put_col(w, a, "tovf", &r->tovf, A_F64, &first, e);
	if (r->kind == VIEW_ROW_COUNTER) {
		put_col(w, a, "value", &r->value, A_F64, &first, e);
	} else {
		put_col(w, a, "name", &r->name, name_type, &first, e);
		put_col(w, a, "arg", &r->arg, A_U32, &first, e);
	}
	if (r->kind == VIEW_ROW_SPANS) {
		put_col(w, a, "dur", &r->dur, A_U32, &first, e);
		put_col(w, a, "durovf", &r->durovf, A_F64, &first, e);
	}
	if (r->kind == VIEW_ROW_EVENTS)
		put_col(w, a, "cpu", &r->cpu, A_U16, &first, e);
	if (r->has_stack) {
		put_col(w, a, "stack", &r->stack, A_U32, &first, e);
		put_col(w, a, "weight", &r->weight, A_U32, &first, e);
		put_col(w, a, "wovf", &r->wovf, A_F64, &first, e);
	}
	tk_put_char(w, '}');
	if (r->kind != VIEW_ROW_COUNTER)
		put_lod(w, a, r, name_type);
	tk_put_char(w, '}');
}

static void put_meta(tk_writer *w, arrs *a, view_builder *b)
{
	arr_type name_type = b->strings.n <= 65536 ? A_U32_AS_U16 : A_U32;
	tk_put_lit(w, "{\"version\":1,\"inputs\":[");
	for (size_t i = 0; i < b->n_inputs; i++) {
		if (i)
			tk_put_char(w, ',');
		tk_put_lit(w, "{\"path\":");
		put_str(w, b->inputs[i]);
		tk_put_lit(w, ",\"format\":");
		put_str(w, b->input_formats && b->input_formats[i] ? b->input_formats[i] : "");
		tk_put_char(w, '}');
	}
	tk_put_lit(w, "],\"t0\":\"");
	tk_put_u64(w, b->t0);
	tk_put_lit(w, "\",\"span\":");
	tk_put_u64(w, b->t1 - b->t0);
	tk_put_lit(w, ",\"nEvents\":");
	tk_put_u64(w, b->n_events);
	tk_put_lit(w, ",\"nSpans\":");
	tk_put_u64(w, b->n_spans);
	tk_put_lit(w, ",\"nUntimed\":");
	tk_put_u64(w, b->n_untimed);
	tk_put_lit(w, ",\"detailsDropped\":");
	tk_put_u64(w, b->details_dropped);
	tk_put_lit(w, ",\"epoch\":");
	/* after 2001-09-09 in ns since the epoch: a time of day is meaningful */
	tk_put_str(w, b->t0 > UINT64_C(1000000000000000000) ? "true" : "false");
	tk_put_lit(w, ",\"strings\":[");
	put_texts(w, &b->strings, ',', tk_put_json_str);
	tk_put_lit(w, "],\"groups\":[");
	for (size_t i = 0; i < b->n_groups; i++) {
		const view_group *g = &b->groups[i];
		if (i)
			tk_put_char(w, ',');
		tk_put_lit(w, "{\"kind\":\"");
		tk_put_str(w, group_kinds[g->kind]);
		tk_put_lit(w, "\",\"input\":");
		tk_put_u64(w, g->input);
		tk_put_lit(w, ",\"id\":");
		tk_put_i64(w, g->id);
		tk_put_lit(w, ",\"name\":");
		put_str(w, g->name);
		tk_put_char(w, '}');
	}
	tk_put_lit(w, "],\"tracks\":[");
	for (size_t i = 0; i < b->n_tracks; i++) {
		const view_track *t = &b->tracks[i];
		if (i)
			tk_put_char(w, ',');
		tk_put_lit(w, "{\"group\":");
		tk_put_u64(w, t->group);
		tk_put_lit(w, ",\"name\":");
		put_str(w, t->name);
		tk_put_lit(w, ",\"kind\":\"");
		tk_put_str(w, row_kinds[b->rows[t->rows[0]].kind]);
		tk_put_lit(w, "\",\"tid\":");
		tk_put_i64(w, t->tid);
		tk_put_lit(w, ",\"cpu\":");
		tk_put_i64(w, t->cpu);
		tk_put_lit(w, ",\"n\":");
		tk_put_u64(w, t->n_events);
		tk_put_lit(w, ",\"rows\":[");
		for (size_t k = 0; k < t->n_rows; k++) {
			if (k)
				tk_put_char(w, ',');
			put_row(w, a, b, &b->rows[t->rows[k]], name_type);
		}
		tk_put_lit(w, "]}");
	}
	tk_put_lit(w, "],\"stacks\":{\"n\":");
	tk_put_u64(w, b->n_stacks);
	tk_put_lit(w, ",\"parent\":");
	put_arr(w, a, &b->stack_parent, A_U32, false);
	tk_put_lit(w, ",\"frame\":");
	put_arr(w, a, &b->stack_frame, A_U32, false);
	tk_put_lit(w, "},\"arrays\":[");
	for (size_t i = 0; i < a->n; i++) {
		const arr *x = &a->v[i];
		if (i)
			tk_put_char(w, ',');
		tk_put_lit(w, "{\"type\":\"");
		tk_put_str(w, type_names[x->type]);
		tk_put_lit(w, "\",\"n\":");
		tk_put_u64(w, x->bytes / type_sizes[x->type]);
		tk_put_lit(w, ",\"parts\":");
		size_t out = x->type == A_U32_AS_U16 ? x->bytes / 2 : x->bytes;
		tk_put_u64(w, out ? (out + CHUNK - 1) / CHUNK : 0);
		tk_put_char(w, '}');
	}
	tk_put_lit(w, "]}");
}

/* Copies JSON text into the page with '<', '>', '&' as \u escapes (they
 * only ever occur inside JSON strings, where the escape means the same). */
static void put_safe(tk_writer *w, const char *s, size_t n)
{
	size_t from = 0;
	for (size_t i = 0; i < n; i++) {
		const char *esc = s[i] == '<'   ? "\\u003c"
				  : s[i] == '>' ? "\\u003e"
				  : s[i] == '&' ? "\\u0026"
						: NULL;
		if (!esc)
			continue;
		tk_put_mem(w, s + from, i - from);
		tk_put_str(w, esc);
		from = i + 1;
	}
	tk_put_mem(w, s + from, n - from);
}

/* A data element of the page: a script of a type the browser does not
 * run, whose text only put_safe()'s output or base64 may fill. */
static void put_element_start(tk_writer *w, const char *type, const char *id)
{
	tk_put_lit(w, "<script type=\"");
	tk_put_str(w, type);
	tk_put_lit(w, "\" id=\"");
	tk_put_str(w, id);
	tk_put_lit(w, "\">");
}

static void put_element_end(tk_writer *w)
{
	tk_put_lit(w, "</script>\n");
}

static void put_array_elements(tk_writer *w, const arr *x, size_t index)
{
	const uint8_t *p = x->p;
	size_t bytes = x->bytes;
	uint16_t *narrow = NULL;
	if (x->type == A_U32_AS_U16) {
		size_t n = x->bytes / 4;
		narrow = malloc(n ? n * 2 : 1);
		if (!narrow) {
			w->error = w->error ? w->error : 12; /* ENOMEM, reported at commit */
			return;
		}
		for (size_t i = 0; i < n; i++) {
			uint32_t v;
			memcpy(&v, x->p + 4 * i, 4);
			narrow[i] = (uint16_t)v;
		}
		p = (const uint8_t *)narrow;
		bytes = n * 2;
	}
	for (size_t off = 0, part = 0; off < bytes; off += CHUNK, part++) {
		char id[48];
		snprintf(id, sizeof id, "tk-a%zu-%zu", index, part);
		put_element_start(w, "application/octet-stream", id);
		view_put_base64(w, p + off, bytes - off < CHUNK ? bytes - off : CHUNK);
		put_element_end(w);
	}
	free(narrow);
}

/* Writes text up to `marker` (or all of it); returns what follows it. */
static const char *put_until(tk_writer *w, const char *text, const char *marker)
{
	const char *at = strstr(text, marker);
	if (!at) {
		tk_put_str(w, text);
		return text + strlen(text);
	}
	tk_put_mem(w, text, (size_t)(at - text));
	return at + strlen(marker);
}

tk_status view_write_html(view_builder *b, tk_writer *w, tk_error *err)
{
	for (size_t i = 0; i < b->n_rows; i++)
		view_lod_finish(&b->rows[i].lod, b->rows[i].first, b->rows[i].n);
	if (!b->have_t0)
		b->t0 = b->t1 = 0;
	tk_writer *meta = NULL;
	arrs a = {0};
	tk_status st = tk_writer_open_memory(&meta, err);
	if (st != TK_OK)
		return st;
	put_meta(meta, &a, b);
	size_t meta_len;
	const char *meta_text = tk_writer_data(meta, &meta_len);
	if (a.nomem || meta->error) {
		st =
		    tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory writing the view");
		goto out;
	}
	const char *html = tk_view_asset_html;
	html = put_until(w, html, "/*TK:CSS*/");
	tk_put_mem(w, tk_view_asset_css, tk_view_asset_css_len);
	html = put_until(w, html, "<!--TK:DATA-->");
	put_element_start(w, "application/json", "tk-meta");
	put_safe(w, meta_text, meta_len);
	put_element_end(w);
	for (size_t i = 0; i < a.n; i++)
		if (a.v[i].early)
			put_array_elements(w, &a.v[i], i);
	html = put_until(w, html, "/*TK:JS*/");
	tk_put_mem(w, tk_view_asset_js, tk_view_asset_js_len);
	html = put_until(w, html, "<!--TK:LATE-->");
	for (size_t i = 0; i < a.n; i++)
		if (!a.v[i].early)
			put_array_elements(w, &a.v[i], i);
	/* one JSON object a line (JSON text has no raw newline), index 0 = "":
	 * the page splits the lines on first use, and a JSON string of each
	 * would cost an escape per quote */
	put_element_start(w, "text/plain", "tk-details");
	put_texts(w, &b->details, '\n', put_safe);
	put_element_end(w);
	tk_put_str(w, html);
	if (w->error)
		st = tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot write the view: %s",
				  strerror(w->error));
out:
	free(a.v);
	tk_writer_abort(meta);
	return st;
}
