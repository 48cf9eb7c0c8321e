/* The text of an event, as VPP's format_elog_event makes it: the format is
 * cut into literal text and one directive at a time, each directive is
 * formatted with the next argument by vppinfra's format() rules (the only
 * flags are '-' '+' '=', a width pads or truncates, %d and %x ignore the
 * precision, no length modifier means a 32-bit int), and formatting stops
 * when the arguments run out. tracekit's elog reader renders the elog dump
 * by the same rules, so the CPEL dump reads back with the same text. */
#include <stdio.h>
#include <string.h>

#include "log/log_impl.h"

#define MAX_WIDTH 1024

typedef struct buf {
	char *p;
	size_t n, cap;
} buf;

static void put(buf *b, const char *s, size_t n)
{
	size_t room = b->cap - 1 - b->n;
	n = n < room ? n : room;
	memcpy(b->p + b->n, s, n);
	b->n += n;
}

static void pad(buf *b, char c, size_t n)
{
	while (n--)
		put(b, &c, 1);
}

typedef struct arg {
	int kind; /* 0 int, 1 double, 2 string */
	uint64_t u;
	double f;
	const char *s; /* NULL: "(nil)" */
	size_t len;
} arg;

static unsigned add_digit(unsigned v, char c)
{
	v = v * 10 + (unsigned)(c - '0');
	return v > MAX_WIDTH ? MAX_WIDTH : v;
}

static uint64_t bits_of(const arg *a)
{
	if (a->kind == 1) {
		if (!(a->f == a->f) || a->f >= 9.2e18 || a->f <= -9.2e18)
			return 0;
		return (uint64_t)(int64_t)a->f;
	}
	return a->u;
}

/* One directive d[0..n) ('%' first) with argument a. */
static void directive(buf *out, const char *d, size_t n, const arg *a)
{
	size_t i = 1;
	bool left = false, center = false, zero = false, has_prec = false;
	unsigned width = 0, prec = 0;
	int len = 0;
	if (i < n && (d[i] == '-' || d[i] == '+' || d[i] == '=')) {
		left = d[i] == '-';
		center = d[i] == '=';
		i++;
	}
	if (i < n && d[i] == '0')
		zero = true;
	while (i < n && d[i] >= '0' && d[i] <= '9')
		width = add_digit(width, d[i++]);
	if (i < n && d[i] == '.') {
		has_prec = true;
		i++;
		while (i < n && d[i] >= '0' && d[i] <= '9')
			prec = add_digit(prec, d[i++]);
	}
	if (i < n && (d[i] == 'w' || d[i] == 'L')) {
		len = 2;
		i++;
	} else if (i < n && d[i] == 'l') {
		len = 1;
		i++;
		if (i < n && d[i] == 'l') {
			len = 2;
			i++;
		}
	}
	char conv = i < n ? d[i] : 0;
	if (!conv || !strchr("cpxXuodsSfge", conv) || i + 1 != n) {
		/* not a directive: shown as text from the '%' on */
		put(out, "%", 1);
		put(out, d + 1, n - 1);
		return;
	}
	char nat[MAX_WIDTH + 400];
	buf nb = {nat, 0, sizeof nat};
	const char *text = nat;
	size_t tl;
	if ((conv == 's' || conv == 'S') && a->kind == 2 && a->s) {
		tl = a->len;
		if (has_prec && prec < tl)
			tl = prec;
		text = a->s;
		if (conv == 'S') {
			for (size_t k = 0; k < tl; k++)
				put(&nb, a->s[k] == '_' ? " " : a->s + k, 1);
			text = nat;
			tl = nb.n;
		}
	} else {
		if (conv == 's' || conv == 'S') {
			if (a->kind != 2) {
				char num[24];
				size_t k = 0;
				uint64_t v = bits_of(a);
				do
					num[sizeof num - ++k] = (char)('0' + v % 10);
				while ((v /= 10) != 0);
				size_t l = k;
				if (has_prec && prec < l)
					l = prec;
				put(&nb, num + sizeof num - k, l);
			} else {
				put(&nb, "(nil)", has_prec && prec < 5 ? prec : 5);
			}
		} else if (conv == 'f' || conv == 'g' || conv == 'e') {
			char f[8] = {'%', '*', '.', '*', conv, 0};
			double x = a->kind == 1 ? a->f
				   : len >= 1   ? (double)(int64_t)a->u
						: (double)(int32_t)(uint32_t)a->u;
			unsigned p = has_prec ? prec : 6;
			if (p > 64)
				p = 64;
			int k = snprintf(nat, sizeof nat, f, 0, (int)p, x);
			nb.n = k > 0 ? ((size_t)k < sizeof nat ? (size_t)k : sizeof nat - 1) : 0;
		} else if (conv == 'c') {
			char c = (char)bits_of(a);
			put(&nb, &c, 1);
		} else {
			uint64_t raw = bits_of(a);
			bool neg = false;
			if (len == 0)
				raw = (uint64_t)(int64_t)(int32_t)(uint32_t)raw;
			if (conv == 'd' && (int64_t)raw < 0) {
				neg = true;
				raw = 0 - raw;
			}
			if (len == 0)
				raw &= 0xffffffffu;
			unsigned base = conv == 'o'                                   ? 8
					: (conv == 'x' || conv == 'X' || conv == 'p') ? 16
										      : 10;
			const char *set = conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
			char num[80];
			size_t k = 0;
			do
				num[sizeof num - ++k] = set[raw % base];
			while ((raw /= base) != 0);
			if (conv == 'p')
				put(&nb, "0x", 2);
			if (neg)
				put(&nb, "-", 1);
			put(&nb, num + sizeof num - k, k);
		}
		tl = nb.n;
	}
	if (width == 0 || width == tl) {
		put(out, text, tl);
		return;
	}
	if (tl > width) {
		put(out, text, width);
		return;
	}
	size_t np = width - tl, nl = 0, nr = 0;
	if (left)
		nr = np;
	else if (center) {
		nr = nl = np / 2;
		nl += np % 2;
	} else
		nl = np;
	pad(out, zero ? '0' : ' ', nl);
	put(out, text, tl);
	pad(out, zero ? '0' : ' ', nr);
}

/* The arguments as elog's reader decodes them from the dump. */
static unsigned decode_args(const tk_lg_view *v, const tk_lg_event *e, arg *args)
{
	const tk_lg_vtype *t = &v->types[e->type];
	unsigned wi = 0;
	for (unsigned i = 0; i < t->n_args; i++) {
		arg *a = &args[i];
		memset(a, 0, sizeof *a);
		switch (t->kinds[i]) {
		case TK_LOG_U32: a->u = (uint32_t)e->w[wi++]; break;
		case TK_LOG_U64:
		case TK_LOG_I64: a->u = e->w[wi++]; break;
		case TK_LOG_F64:
			a->kind = 1;
			memcpy(&a->f, &e->w[wi++], 8);
			break;
		case TK_LOG_STR:
			a->kind = 2;
			a->s = (const char *)&e->w[wi];
			a->len = strnlen(a->s, TK_LOG_STR_MAX);
			wi += LG_STR_WORDS;
			break;
		case TK_LOG_SREF: {
			uint32_t off = (uint32_t)e->w[wi++];
			a->kind = 2;
			a->u = off;
			if (off < v->strtab_len) {
				a->s = v->strtab + off;
				a->len = strnlen(a->s, v->strtab_len - off);
			}
			break;
		}
		}
	}
	return t->n_args;
}

size_t tk_lg_format_event(char *out, size_t cap, const tk_lg_view *v, const tk_lg_event *e)
{
	buf b = {out, 0, cap};
	arg args[TK_LOG_MAX_ARGS];
	unsigned n_args = decode_args(v, e, args);
	const char *fmt = v->types[e->type].format;
	unsigned next = 0;
	for (;;) {
		const char *p = fmt;
		while (*p && !(p[0] == '%' && p[1] != '%'))
			p++;
		put(&b, fmt, (size_t)(p - fmt));
		if (*p != '%' || next >= n_args)
			break;
		const char *d = p + 1;
		d += *d == '+' || *d == '-' || *d == '=';
		while ((*d >= '0' && *d <= '9') || *d == '.')
			d++;
		d += *d == 'w' || *d == 'l' || *d == 'L';
		d += *d != 0;
		if (d - p > 1)
			directive(&b, p, (size_t)(d - p), &args[next]);
		next++;
		fmt = d;
	}
	out[b.n] = 0;
	return b.n;
}
