/* CPEL datum plans; see cpel_text.h. */
#include "cpel/cpel_text.h"

#include <string.h>

#include "base/writer.h"
#include "cpel/safe_format.h"

void tk_cpel_plan_datum(const char *fmt, bool is_string, tk_cpel_datum_plan *p)
{
	memset(p, 0, sizeof *p);
	p->fmt = fmt;
	p->fmt_len = strlen(fmt);
	p->is_string = is_string;
	const char *pct = strchr(fmt, '%');
	if (!pct)
		return;
	const char *c = pct + 1;
	if (*c == '0') {
		p->zero = true;
		c++;
	}
	while (*c >= '0' && *c <= '9' && p->width <= 20)
		p->width = p->width * 10 + (unsigned)(*c++ - '0');
	if (p->width > 20 || !*c || !strchr("duxXs", *c) || (*c == 's' && (p->zero || p->width)))
		return;
	/* a string datum printed by a numeric conversion (or the reverse)
	 * takes printf's route through the fallback */
	if ((*c == 's') != is_string)
		return;
	p->conv = *c;
	if (strchr(c + 1, '%'))
		return;
	p->pre = fmt;
	p->pre_len = (uint32_t)(pct - fmt);
	p->post = c + 1;
	p->post_len = (uint32_t)strlen(c + 1);
	memcpy(p->pre_copy, p->pre,
	       p->pre_len < TK_CPEL_PLAN_COPY ? p->pre_len : TK_CPEL_PLAN_COPY);
	memcpy(p->post_copy, p->post,
	       p->post_len < TK_CPEL_PLAN_COPY ? p->post_len : TK_CPEL_PLAN_COPY);
	p->simple = true;
}

static unsigned dec_len(uint32_t m)
{
	unsigned n = 1;
	while (m >= 100) {
		m /= 100;
		n += 2;
	}
	return n + (m >= 10);
}

/* m's n decimal digits, ending at end (two digits per step). */
static void put_dec(char *end, uint32_t m)
{
	while (m >= 100) {
		unsigned r = m % 100;
		m /= 100;
		end -= 2;
		memcpy(end, tk_digit_pairs + 2 * r, 2);
	}
	if (m >= 10) {
		end -= 2;
		memcpy(end, tk_digit_pairs + 2 * m, 2);
	} else {
		*--end = (char)('0' + m);
	}
}

/* A short literal (the plan keeps a copy with spare bytes): one fixed-size
 * copy; longer ones the usual way. */
static char *put_lit(char *o, const char *s, const char *copy, uint32_t len)
{
	if (len <= TK_CPEL_PLAN_COPY)
		memcpy(o, copy, TK_CPEL_PLAN_COPY);
	else
		memcpy(o, s, len);
	return o + len;
}

/* The planned conversion of one u32, with printf's semantics. */
static void put_int(tk_writer *w, const tk_cpel_datum_plan *p, uint32_t v)
{
	bool neg = p->conv == 'd' && (int32_t)v < 0;
	uint32_t m = neg ? 0u - v : v;
	bool hex = p->conv == 'x' || p->conv == 'X';
	unsigned nd = hex ? (unsigned)(32 - __builtin_clz(m | 1) + 3) / 4 : dec_len(m);
	if (!tk_writer_reserve(w, p->pre_len + p->post_len + 2 * TK_CPEL_PLAN_COPY + 24))
		return;
	char *o = put_lit(w->buf + w->pos, p->pre, p->pre_copy, p->pre_len);
	if (p->width > nd + neg) {
		size_t pad = p->width - nd - neg;
		if (p->zero && neg)
			*o++ = '-';
		memset(o, p->zero ? '0' : ' ', pad);
		o += pad;
		if (!p->zero && neg)
			*o++ = '-';
	} else if (neg) {
		*o++ = '-';
	}
	if (hex) {
		const char *digits = p->conv == 'x' ? "0123456789abcdef" : "0123456789ABCDEF";
		for (unsigned k = nd; k-- > 0; m >>= 4)
			o[k] = digits[m & 15];
	} else {
		put_dec(o + nd, m);
	}
	o = put_lit(o + nd, p->post, p->post_copy, p->post_len);
	w->pos = (size_t)(o - w->buf);
}

void tk_cpel_put_datum(tk_writer *w, const tk_cpel_datum_plan *p, uint32_t datum, const char *str,
		       size_t len)
{
	if (p->simple && !p->is_string) {
		put_int(w, p, datum);
		return;
	}
	if (p->simple) {
		if (!tk_writer_reserve(w, p->pre_len + len + p->post_len + 2 * TK_CPEL_PLAN_COPY))
			return;
		char *o = put_lit(w->buf + w->pos, p->pre, p->pre_copy, p->pre_len);
		memcpy(o, str, len);
		o = put_lit(o + len, p->post, p->post_copy, p->post_len);
		w->pos = (size_t)(o - w->buf);
		return;
	}
	tk_fmt_arg a = {.kind = TK_FMT_ARG_INT, .u = datum};
	if (p->is_string) {
		a.kind = TK_FMT_ARG_STRING;
		a.s = str;
		a.len = len;
	}
	tk_safe_format(w, TK_FMT_PRINTF, p->fmt, p->fmt_len, &a, 1);
}
