/* perf report's sort-key columns (see report_sort.h). */
#include <string.h>

#include "output/report_sort.h"

static const char *const names[] = {"pid", "comm", "dso", "sym", "srcline"};
static const char *const headers[] = {"    Pid:Command", "Command", "Shared Object", "Symbol",
				      "Source:Line"};
#define N_KEYS (sizeof names / sizeof names[0])

bool tk_rsort_parse(const char *text, tk_rsort *out)
{
	memset(out, 0, sizeof *out);
	if (!text) {
		out->keys[out->n++] = TK_RSORT_SYM;
		out->mask = 1u << TK_RSORT_SYM;
		return true;
	}
	const char *p = text;
	for (;;) {
		size_t len = strcspn(p, ",");
		size_t k = 0;
		while (k < N_KEYS && !(strlen(names[k]) == len && memcmp(names[k], p, len) == 0))
			k++;
		if (k == N_KEYS || (out->mask >> k) & 1 || out->n == TK_RSORT_MAX)
			return false;
		out->keys[out->n++] = (uint8_t)k;
		out->mask |= 1u << k;
		if (!p[len])
			return true;
		p += len + 1;
	}
}

bool tk_rsort_is_perf_list(const char *text)
{
	tk_rsort s;
	return text && tk_rsort_parse(text, &s);
}

const char *tk_rsort_header(tk_rsort_key k)
{
	return headers[k];
}

size_t tk_rsort_width(tk_rsort_key k, const tk_rsort_cells *c)
{
	switch (k) {
	case TK_RSORT_PID: return strlen(c->thread_comm) + 8;
	case TK_RSORT_COMM: return strlen(c->thread_comm);
	case TK_RSORT_DSO: {
		/* hists__set_unres_dso_col_len(): 16 once a row has no symbol */
		size_t n = c->dso ? strlen(c->dso) : 0;
		return c->unresolved && n < 16 ? 16 : n;
	}
	case TK_RSORT_SYM: return 4 + c->sym_len; /* " (inlined)" not counted */
	case TK_RSORT_SRCLINE: return c->srcline ? strlen(c->srcline) : 0;
	}
	return 0;
}

void tk_rsort_put_cell(tk_writer *w, tk_rsort_key k, const tk_rsort_cells *c, size_t width,
		       bool last)
{
	size_t n = 0;
	switch (k) {
	case TK_RSORT_PID: {
		/* "%7d:%-*.*s": the comm cut to width - 8 */
		tk_put_i64_pad(w, c->tid, 7);
		tk_put_char(w, ':');
		size_t room = width > 8 ? width - 8 : 0, len = strlen(c->thread_comm);
		n = len < room ? len : room;
		tk_put_mem(w, c->thread_comm, n);
		n += 8;
		break;
	}
	case TK_RSORT_COMM:
		n = strlen(c->comm);
		tk_put_mem(w, c->comm, n);
		break;
	case TK_RSORT_DSO: {
		const char *d = c->dso ? c->dso : "[unknown]";
		n = strlen(d);
		tk_put_mem(w, d, n);
		break;
	}
	case TK_RSORT_SYM:
		tk_put_fmt(w, "[%c] %.*s%s", c->level, (int)c->sym_len, c->sym,
			   c->inlined ? " (inlined)" : "");
		n = 4 + c->sym_len + (c->inlined ? 10 : 0);
		break;
	case TK_RSORT_SRCLINE: {
		const char *s = c->srcline ? c->srcline : "??:0";
		n = strlen(s);
		tk_put_mem(w, s, n);
		break;
	}
	}
	if (!last && n < width)
		tk_put_spaces(w, (unsigned)(width - n));
}
