/* perf diff's table over report rows (see report_diff.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/report_diff.h"
#include "output/report_sort.h"

typedef struct drow {
	const tk_report_row *a, *b; /* NULL: not in that file */
	double self_a, self_b, ch_a, ch_b;
} drow;

static bool show_children;
static size_t sort_keys_n, sort_sym; /* the --sort keys, sym's index (n: none) */

static const char *cell(const char *key, size_t n, size_t *len);

static double delta_of(const drow *r)
{
	return show_children ? r->ch_b - r->ch_a : r->self_b - r->self_a;
}

static uint64_t baseline_of(const drow *r)
{
	return !r->a ? 0 : show_children ? r->a->children : r->a->self;
}

/* perf diff -c delta-abs: rows found in the other file first (the
 * baseline's rows without a pair last), by |delta|, then by key */
static int cmp_drow(const void *pa, const void *pb)
{
	const drow *x = pa, *y = pb;
	bool px = x->b != NULL, py = y->b != NULL;
	if (px != py)
		return px ? -1 : 1;
	if (px) {
		double dx = fabs(delta_of(x)), dy = fabs(delta_of(y));
		if (dx != dy)
			return dx > dy ? -1 : 1;
		/* equal: hist_entry__cmp_baseline, the larger baseline
		 * period first (a row only in B has none) */
		uint64_t ax = baseline_of(x), ay = baseline_of(y);
		if (ax != ay)
			return ax > ay ? -1 : 1;
	} else {
		/* no delta: by the baseline's share */
		double bx = show_children ? x->ch_a : x->self_a;
		double by = show_children ? y->ch_a : y->self_a;
		if (bx != by)
			return bx > by ? -1 : 1;
	}
	/* equal: the --sort keys in order, each as perf's se_sort; for
	 * sym (sort__sym_sort) rows without a symbol after, the others by
	 * name (cmp_null, then strcmp) */
	const tk_report_row *kx = x->a ? x->a : x->b, *ky = y->a ? y->a : y->b;
	for (size_t k = 0; k < sort_keys_n; k++) {
		size_t lx, ly;
		const char *cx = cell(kx->key, k, &lx), *cy = cell(ky->key, k, &ly);
		if (k == sort_sym) {
			if (kx->unresolved != ky->unresolved)
				return kx->unresolved ? 1 : -1;
			/* past the "[.] " level prefix: names only */
			size_t skip = lx > 4 && ly > 4 ? 4 : 0;
			cx += skip, cy += skip, lx -= skip, ly -= skip;
		}
		int c = memcmp(cx, cy, lx < ly ? lx : ly);
		if (c || lx != ly)
			return c ? c : lx < ly ? -1 : 1;
	}
	return strcmp(kx->key, ky->key);
}

static const tk_report_row *sort_rows;

/* How rows of the two files pair: by key, rows without a symbol by
 * their other cells and their sym cell's level only (sort__sym_sort
 * finds any two such equal; the address, "0x..." or sixteen zeros for
 * address 0, differs). */
static int match_cmp(const tk_report_row *x, const tk_report_row *y)
{
	if (x->unresolved != y->unresolved)
		return x->unresolved ? 1 : -1;
	if (!x->unresolved)
		return strcmp(x->key, y->key);
	const char *p = x->key, *q = y->key;
	for (size_t k = 0;; k++) {
		size_t lp = strcspn(p, "\t"), lq = strcspn(q, "\t");
		size_t l = lp < lq ? lp : lq;
		if (k == sort_sym && l > 3)
			l = 3; /* "[.]" */
		int c = memcmp(p, q, l);
		if (!c && k != sort_sym)
			c = (lp > lq) - (lp < lq);
		if (c)
			return c;
		if (!p[lp] || !q[lq])
			return (p[lp] != 0) - (q[lq] != 0);
		p += lp + 1;
		q += lq + 1;
	}
}

static int cmp_index(const void *pa, const void *pb)
{
	size_t x = *(const size_t *)pa, y = *(const size_t *)pb;
	int c = match_cmp(&sort_rows[x], &sort_rows[y]);
	return c ? c : x < y ? -1 : x > y;
}

static double pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

/* The n-th tab-separated cell of key: its start and length. */
static const char *cell(const char *key, size_t n, size_t *len)
{
	for (; n && key; n--) {
		key = strchr(key, '\t');
		if (key)
			key++;
	}
	if (!key) {
		*len = 0;
		return "";
	}
	*len = strcspn(key, "\t");
	return key;
}

static void put_pct(tk_writer *w, bool have, double v, bool sign, int width)
{
	if (!have) {
		tk_put_spaces(w, (unsigned)width);
		return;
	}
	tk_put_fmt(w, sign ? "%+*.2f%%" : "%*.2f%%", width - 1, v);
}

/* perf diff collapses the entries without a symbol (sort__sym_sort
 * finds any two equal) into one per value of the other keys, shown with
 * the lowest of their addresses: the same here, into a new row array
 * of *out (its keys still the input's; free out->rows). */
static tk_status merge_unresolved(const tk_report_rows_table *in, const tk_rsort *so,
				  tk_report_rows_table *out, tk_error *err)
{
	*out = *in;
	size_t sym = 0;
	while (sym < so->n && so->keys[sym] != TK_RSORT_SYM)
		sym++;
	if (!(out->rows = calloc(in->n + 1, sizeof *out->rows)))
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	out->n = 0;
	for (size_t i = 0; i < in->n; i++) {
		const tk_report_row *r = &in->rows[i];
		if (!r->unresolved || sym == so->n) {
			out->rows[out->n++] = *r;
			continue;
		}
		/* the key less its sym cell: the group */
		size_t len, before;
		const char *c = cell(r->key, sym, &len);
		before = (size_t)(c - r->key);
		tk_report_row *g = NULL;
		for (size_t j = 0; j < out->n && !g; j++) {
			const tk_report_row *o = &out->rows[j];
			size_t l2;
			const char *c2 = o->unresolved ? cell(o->key, sym, &l2) : NULL;
			if (c2 && (size_t)(c2 - o->key) == before &&
			    memcmp(o->key, r->key, before) == 0 && strcmp(c2 + l2, c + len) == 0 &&
			    c2[1] == c[1])
				g = &out->rows[j];
		}
		if (!g) {
			out->rows[out->n++] = *r;
			continue;
		}
		g->self += r->self;
		g->children += r->children;
		if (r->addr < g->addr) {
			/* shown with the lower address: r's key */
			g->addr = r->addr;
			g->key = r->key;
		}
	}
	return TK_OK;
}

static tk_status diff_merged(const tk_report_rows_table *ta, const tk_report_rows_table *tb,
			     const tk_rsort *so, uint64_t top, tk_writer *w, tk_error *err);

static tk_status diff_table(const tk_report_rows_table *ta, const tk_report_rows_table *tb,
			    const tk_rsort *so, uint64_t top, tk_writer *w, tk_error *err)
{
	static const tk_report_rows_table none = {0};
	tk_report_rows_table ma, mb;
	tk_status st = merge_unresolved(ta ? ta : &none, so, &ma, err);
	if (st != TK_OK)
		return st;
	if ((st = merge_unresolved(tb ? tb : &none, so, &mb, err)) == TK_OK) {
		st = diff_merged(&ma, &mb, so, top, w, err);
		free(mb.rows);
	}
	free(ma.rows);
	return st;
}

static tk_status diff_merged(const tk_report_rows_table *ta, const tk_report_rows_table *tb,
			     const tk_rsort *so, uint64_t top, tk_writer *w, tk_error *err)
{
	drow *rows = calloc(ta->n + tb->n + 1, sizeof *rows);
	bool *paired = calloc(tb->n + 1, 1);
	if (!rows || !paired) {
		free(rows);
		free(paired);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	/* pair rows by their key text (perf diff matches names, not
	 * addresses: the files may come from different builds); B's rows
	 * sorted by key, each found by bisection */
	size_t *bsorted = malloc((tb->n + 1) * sizeof *bsorted);
	size_t n = 0;
	if (!bsorted) {
		free(rows);
		free(paired);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	for (size_t j = 0; j < tb->n; j++)
		bsorted[j] = j;
	sort_rows = tb->rows;
	qsort(bsorted, tb->n, sizeof *bsorted, cmp_index);
	for (size_t i = 0; i < ta->n; i++) {
		drow *r = &rows[n++];
		r->a = &ta->rows[i];
		size_t lo = 0, hi = tb->n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (match_cmp(&tb->rows[bsorted[mid]], r->a) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		/* equal keys: the first not yet paired */
		for (; lo < tb->n && match_cmp(&tb->rows[bsorted[lo]], r->a) == 0; lo++)
			if (!paired[bsorted[lo]]) {
				paired[bsorted[lo]] = true;
				r->b = &tb->rows[bsorted[lo]];
				break;
			}
	}
	for (size_t j = 0; j < tb->n; j++)
		if (!paired[j])
			rows[n++] = (drow){.b = &tb->rows[j]};
	for (size_t i = 0; i < n; i++) {
		drow *r = &rows[i];
		if (r->a) {
			r->self_a = pct(r->a->self, ta->total);
			r->ch_a = pct(r->a->children, ta->total);
		}
		if (r->b) {
			r->self_b = pct(r->b->self, tb->total);
			r->ch_b = pct(r->b->children, tb->total);
		}
	}
	qsort(rows, n, sizeof *rows, cmp_drow);
	if (top && n > top)
		n = (size_t)top;
	size_t width[TK_RSORT_MAX];
	for (size_t k = 0; k < so->n; k++) {
		width[k] = strlen(tk_rsort_header((tk_rsort_key)so->keys[k]));
		for (size_t i = 0; i < n; i++) {
			const tk_report_row *r = rows[i].a ? rows[i].a : rows[i].b;
			size_t len;
			cell(r->key, k, &len);
			/* hists__set_unres_dso_col_len(): a row whose entry has
			 * no symbol widens the dso column to 16 */
			if (so->keys[k] == TK_RSORT_DSO && r->no_sym && len < 16)
				len = 16;
			if (len > width[k])
				width[k] = len;
		}
	}
	tk_put_fmt(w, "# Event '%s'\n#\n", ta->event ? ta->event : tb->event);
	tk_put_str(w, show_children ? "# Children  Delta Abs      Self  Delta Abs"
				    : "# Baseline  Delta Abs");
	for (size_t k = 0; k < so->n; k++)
		tk_put_fmt(w, "  %-*s", (int)width[k], tk_rsort_header((tk_rsort_key)so->keys[k]));
	tk_put_str(w, show_children ? "\n# ........  .........  ........  ........."
				    : "\n# ........  .........");
	for (size_t k = 0; k < so->n; k++) {
		tk_put_lit(w, "  ");
		for (size_t i = 0; i < width[k]; i++)
			tk_put_char(w, '.');
	}
	tk_put_lit(w, "\n#\n");
	for (size_t i = 0; i < n; i++) {
		const drow *r = &rows[i];
		if (show_children) {
			put_pct(w, r->a, r->ch_a, false, 10);
			tk_put_lit(w, "  ");
			put_pct(w, r->b, r->ch_b - r->ch_a, true, 9);
			tk_put_lit(w, "  ");
			put_pct(w, r->a, r->self_a, false, 8);
			tk_put_lit(w, "  ");
			put_pct(w, r->b, r->self_b - r->self_a, true, 9);
		} else {
			/* a row only in B: no baseline, its delta against 0; only
			 * in A: no delta */
			put_pct(w, r->a, r->self_a, false, 10);
			tk_put_lit(w, "  ");
			put_pct(w, r->b, r->self_b - r->self_a, true, 9);
		}
		const char *key = (r->a ? r->a : r->b)->key;
		for (size_t k = 0; k < so->n; k++) {
			size_t len;
			const char *c = cell(key, k, &len);
			tk_put_lit(w, "  ");
			tk_put_mem(w, c, len);
			if (k + 1 < so->n && len < width[k])
				tk_put_spaces(w, (unsigned)(width[k] - len));
		}
		tk_put_char(w, '\n');
	}
	free(bsorted);
	free(rows);
	free(paired);
	return TK_OK;
}

tk_status tk_report_diff_write(const tk_report_rows *a, const tk_report_rows *b,
			       const char *sort_keys, bool children, uint64_t top, tk_writer *out,
			       tk_error *err)
{
	tk_rsort so;
	if (!tk_rsort_parse(sort_keys, &so))
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
				    "unknown --sort list '%s' (pid, comm, dso, sym)", sort_keys);
	show_children = children;
	sort_keys_n = so.n;
	for (sort_sym = 0; sort_sym < so.n && so.keys[sort_sym] != TK_RSORT_SYM; sort_sym++)
		;
	tk_status st = TK_OK;
	bool one_each = a->n == 1 && b->n == 1;
	size_t printed = 0;
	for (size_t i = 0; i < a->n && st == TK_OK; i++) {
		const tk_report_rows_table *tb = one_each ? &b->tables[0] : NULL;
		for (size_t j = 0; j < b->n && !tb; j++)
			if (strcmp(b->tables[j].event, a->tables[i].event) == 0)
				tb = &b->tables[j];
		if (printed++)
			tk_put_char(out, '\n');
		st = diff_table(&a->tables[i], tb, &so, top, out, err);
	}
	for (size_t j = 0; j < b->n && st == TK_OK && !one_each; j++) {
		bool seen = false;
		for (size_t i = 0; i < a->n; i++)
			seen |= strcmp(a->tables[i].event, b->tables[j].event) == 0;
		if (seen)
			continue;
		if (printed++)
			tk_put_char(out, '\n');
		st = diff_table(NULL, &b->tables[j], &so, top, out, err);
	}
	return st;
}
