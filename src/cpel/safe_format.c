/* Safe printf-like formatter; see safe_format.h. */
#include "cpel/safe_format.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef struct spec {
	bool left, plus, space, alt, zero, center; /* center: vppinfra '=' */
	bool has_prec;
	unsigned width, prec;
	int len; /* 0 none, 1 l, 2 ll/L/j/z/t/q/w, -1 h, -2 hh */
	char conv;
} spec;

static unsigned clamp_add_digit(unsigned v, char c)
{
	v = v * 10 + (unsigned)(c - '0');
	return v > TK_FMT_MAX_WIDTH ? TK_FMT_MAX_WIDTH : v;
}

/* Output of one conversion: the caller's writer, or a fixed buffer when
 * vppinfra needs the natural text before justifying it. */
typedef struct out {
	tk_writer *w;
	char *buf;
	size_t pos, cap;
} out;

static void out_mem(out *o, const void *p, size_t n)
{
	if (o->w) {
		tk_put_mem(o->w, p, n);
		return;
	}
	if (n > o->cap - o->pos)
		n = o->cap - o->pos;
	memcpy(o->buf + o->pos, p, n);
	o->pos += n;
}

static void out_char(out *o, char c)
{
	out_mem(o, &c, 1);
}
static void out_str(out *o, const char *s)
{
	out_mem(o, s, strlen(s));
}

static void put_pad(out *o, char c, size_t n)
{
	char chunk[64];
	memset(chunk, c, sizeof chunk);
	while (n) {
		size_t k = n < sizeof chunk ? n : sizeof chunk;
		out_mem(o, chunk, k);
		n -= k;
	}
}

/* Integer value of an argument as the conversion reads it. */
static uint64_t arg_bits(const tk_fmt_arg *a)
{
	if (!a)
		return 0;
	if (a->kind == TK_FMT_ARG_DOUBLE) {
		if (!(a->f == a->f) || a->f >= 9.2e18 || a->f <= -9.2e18)
			return 0;
		return (uint64_t)(int64_t)a->f;
	}
	return a->u;
}

static double arg_double(const tk_fmt_arg *a, int len)
{
	if (!a)
		return 0;
	if (a->kind == TK_FMT_ARG_DOUBLE)
		return a->f;
	return len >= 1 ? (double)(int64_t)a->u : (double)(int32_t)(uint32_t)a->u;
}

/* Digits of v in base into the end of buf; returns the start. */
static char *digits(char *end, uint64_t v, unsigned base, bool upper)
{
	const char *set = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char *p = end;
	do {
		*--p = set[v % base];
		v /= base;
	} while (v);
	return p;
}

/* printf integer conversions: d i u x X o c p. */
static void fmt_int_printf(out *w, const spec *sp, const tk_fmt_arg *a)
{
	uint64_t raw = arg_bits(a);
	bool is_signed = sp->conv == 'd' || sp->conv == 'i';
	bool neg = false;
	uint64_t mag;
	if (sp->conv == 'p') {
		if (raw == 0) {
			size_t n = 5;
			if (!sp->left && sp->width > n)
				put_pad(w, ' ', sp->width - n);
			out_str(w, "(nil)");
			if (sp->left && sp->width > n)
				put_pad(w, ' ', sp->width - n);
			return;
		}
		mag = raw;
	} else if (sp->len >= 1) {
		neg = is_signed && (int64_t)raw < 0;
		mag = neg ? 0 - raw : raw;
	} else {
		unsigned bits = sp->len == -2 ? 8 : sp->len == -1 ? 16 : 32;
		uint64_t mask = ((uint64_t)1 << bits) - 1;
		uint64_t v = raw & mask;
		if (is_signed && (v >> (bits - 1)) & 1) {
			neg = true;
			mag = ((~v) & mask) + 1;
		} else {
			mag = v;
		}
	}
	unsigned base = 10;
	if (sp->conv == 'x' || sp->conv == 'X' || sp->conv == 'p')
		base = 16;
	else if (sp->conv == 'o')
		base = 8;
	char buf[80];
	char *end = buf + sizeof buf;
	char *d = digits(end, mag, base, sp->conv == 'X');
	size_t nd = (size_t)(end - d);
	if (sp->has_prec && sp->prec == 0 && mag == 0) {
		nd = 0; /* "%.0d" of 0 prints nothing */
		d = end;
	}
	const char *prefix = "";
	if (neg)
		prefix = "-";
	else if (is_signed && sp->plus)
		prefix = "+";
	else if (is_signed && sp->space)
		prefix = " ";
	else if (sp->conv == 'p' || (sp->alt && mag && (sp->conv == 'x' || sp->conv == 'X')))
		prefix = sp->conv == 'X' ? "0X" : "0x";
	size_t zeros = 0;
	if (sp->has_prec && sp->prec > nd)
		zeros = sp->prec - nd;
	if (sp->alt && sp->conv == 'o' && zeros == 0 && (nd == 0 || d[0] != '0'))
		zeros = 1;
	size_t body = strlen(prefix) + zeros + nd;
	size_t pad = sp->width > body ? sp->width - body : 0;
	if (sp->zero && !sp->left && !sp->has_prec) {
		zeros += pad;
		pad = 0;
	}
	if (!sp->left)
		put_pad(w, ' ', pad);
	out_str(w, prefix);
	put_pad(w, '0', zeros);
	out_mem(w, d, nd);
	if (sp->left)
		put_pad(w, ' ', pad);
}

static void fmt_float(out *w, const spec *sp, const tk_fmt_arg *a, tk_fmt_dialect dialect)
{
	/* Built from parsed, clamped pieces: never the file's text. */
	char f[32];
	size_t n = 0;
	f[n++] = '%';
	if (dialect == TK_FMT_PRINTF) {
		if (sp->left)
			f[n++] = '-';
		if (sp->plus)
			f[n++] = '+';
		if (sp->space)
			f[n++] = ' ';
		if (sp->alt)
			f[n++] = '#';
		if (sp->zero)
			f[n++] = '0';
	}
	f[n++] = '*';
	f[n++] = '.';
	f[n++] = '*';
	f[n++] = sp->conv == 'F' && dialect == TK_FMT_VPPINFRA ? 'f' : sp->conv;
	f[n] = 0;
	unsigned prec = sp->has_prec ? sp->prec : 6;
	if (prec > 64)
		prec = 64; /* a double has no more than 17 significant digits */
	char buf[TK_FMT_MAX_WIDTH + 400];
	int width = dialect == TK_FMT_PRINTF ? (int)sp->width : 0;
	int len = snprintf(buf, sizeof buf, f, width, (int)prec, arg_double(a, sp->len));
	if (len > 0)
		out_mem(w, buf, (size_t)len < sizeof buf ? (size_t)len : sizeof buf - 1);
}

static void fmt_string(out *w, const spec *sp, const tk_fmt_arg *a, tk_fmt_dialect dialect)
{
	const char *s;
	size_t len;
	char num[24];
	if (a && a->kind == TK_FMT_ARG_STRING && a->s) {
		s = a->s;
		len = a->len;
	} else if (a && a->kind != TK_FMT_ARG_STRING) {
		/* A number given to %s: the tools would dereference it; we print it. */
		len = tk_fmt_u64(num, arg_bits(a));
		s = num;
	} else {
		s = dialect == TK_FMT_VPPINFRA ? "(nil)" : "(null)";
		len = strlen(s);
	}
	if (sp->has_prec && sp->prec < len)
		len = sp->prec;
	if (sp->conv == 'S' && dialect == TK_FMT_VPPINFRA) {
		/* %S: identifier style, '_' shown as ' ' */
		for (size_t i = 0; i < len; i++)
			out_char(w, s[i] == '_' ? ' ' : s[i]);
		return;
	}
	size_t pad = sp->width > len ? sp->width - len : 0;
	if (!sp->left)
		put_pad(w, ' ', pad);
	out_mem(w, s, len);
	if (sp->left)
		put_pad(w, ' ', pad);
}

/* Parses a printf conversion spec after '%'. Returns the length consumed
 * (up to and including the conversion letter), or 0 when the spec is not
 * one we support (then the caller prints it literally). */
static size_t parse_printf(const char *f, size_t n, spec *sp)
{
	size_t i = 0;
	memset(sp, 0, sizeof *sp);
	for (; i < n; i++) {
		char c = f[i];
		if (c == '-')
			sp->left = true;
		else if (c == '+')
			sp->plus = true;
		else if (c == ' ')
			sp->space = true;
		else if (c == '#')
			sp->alt = true;
		else if (c == '0')
			sp->zero = true;
		else
			break;
	}
	while (i < n && f[i] >= '0' && f[i] <= '9')
		sp->width = clamp_add_digit(sp->width, f[i++]);
	if (i < n && f[i] == '.') {
		sp->has_prec = true;
		i++;
		while (i < n && f[i] >= '0' && f[i] <= '9')
			sp->prec = clamp_add_digit(sp->prec, f[i++]);
	}
	if (i < n && f[i] == 'h') {
		sp->len = -1;
		i++;
		if (i < n && f[i] == 'h') {
			sp->len = -2;
			i++;
		}
	} else if (i < n && f[i] == 'l') {
		sp->len = 1;
		i++;
		if (i < n && f[i] == 'l') {
			sp->len = 2;
			i++;
		}
	} else if (i < n &&
		   (f[i] == 'L' || f[i] == 'q' || f[i] == 'j' || f[i] == 'z' || f[i] == 't')) {
		sp->len = 2;
		i++;
	}
	if (i >= n)
		return 0;
	sp->conv = f[i];
	if (!strchr("diuxXocspfFeEgG", sp->conv))
		return 0;
	return i + 1;
}

/* Parses a vppinfra format() directive after '%' (see vppinfra/format.c
 * do_percent). Same return convention as parse_printf. */
static size_t parse_vppinfra(const char *f, size_t n, spec *sp)
{
	size_t i = 0;
	memset(sp, 0, sizeof *sp);
	if (i < n && (f[i] == '-' || f[i] == '+' || f[i] == '=')) {
		sp->left = f[i] == '-';
		sp->center = f[i] == '=';
		i++;
	}
	if (i < n && f[i] == '0')
		sp->zero = true; /* vppinfra pads with '0' on either side */
	while (i < n && f[i] >= '0' && f[i] <= '9')
		sp->width = clamp_add_digit(sp->width, f[i++]);
	if (i < n && f[i] == '.') {
		sp->has_prec = true;
		i++;
		while (i < n && f[i] >= '0' && f[i] <= '9')
			sp->prec = clamp_add_digit(sp->prec, f[i++]);
	}
	if (i < n && (f[i] == 'w' || f[i] == 'L')) {
		sp->len = 2;
		i++;
	} else if (i < n && f[i] == 'l') {
		sp->len = 1;
		i++;
		if (i < n && f[i] == 'l') {
			sp->len = 2;
			i++;
		}
	}
	if (i >= n)
		return 0;
	sp->conv = f[i];
	if (!strchr("cpxXuodsSfge", sp->conv))
		return 0;
	return i + 1;
}

/* vppinfra: the conversion's natural text, then justify() pads or cuts it
 * to the width. */
static void fmt_vppinfra(out *w, const spec *sp, const tk_fmt_arg *a)
{
	char buf[TK_FMT_MAX_WIDTH + 400];
	out mem = {.buf = buf, .cap = sizeof buf};
	spec natural = *sp;
	natural.width = 0;
	natural.left = false;
	size_t len;
	const char *text;
	size_t slen = 0;
	bool is_string = sp->conv == 's' || sp->conv == 'S';
	if (is_string && a && a->kind == TK_FMT_ARG_STRING && a->s) {
		text = a->s;
		slen = a->len;
		if (sp->has_prec && sp->prec < slen)
			slen = sp->prec;
		if (sp->conv == 'S') {
			fmt_string(&mem, &natural, a, TK_FMT_VPPINFRA);
			text = buf;
			slen = mem.pos;
		}
	} else {
		if (is_string)
			fmt_string(&mem, &natural, a, TK_FMT_VPPINFRA);
		else if (sp->conv == 'f' || sp->conv == 'g' || sp->conv == 'e')
			fmt_float(&mem, &natural, a, TK_FMT_VPPINFRA);
		else if (sp->conv == 'c')
			out_char(&mem, (char)arg_bits(a));
		else {
			uint64_t raw = arg_bits(a);
			bool is_signed = sp->conv == 'd';
			bool neg = false;
			if (sp->len == 0)
				raw = (uint64_t)(int64_t)(int32_t)(uint32_t)raw; /* va_arg(int) */
			if (is_signed && (int64_t)raw < 0) {
				neg = true;
				raw = 0 - raw;
			}
			if (sp->len == 0)
				raw &= 0xffffffffu;
			unsigned base = sp->conv == 'o' ? 8
					: (sp->conv == 'x' || sp->conv == 'X' || sp->conv == 'p')
					    ? 16
					    : 10;
			char nb[80];
			char *end = nb + sizeof nb;
			char *d = digits(end, raw, base, sp->conv == 'X');
			if (sp->conv == 'p')
				out_str(&mem, "0x");
			if (neg)
				out_char(&mem, '-');
			out_mem(&mem, d, (size_t)(end - d));
		}
		text = buf;
		slen = mem.pos;
	}
	len = slen;
	if (sp->width == 0 || sp->width == len) {
		out_mem(w, text, len);
		return;
	}
	if (len > sp->width) {
		out_mem(w, text, sp->width);
		return;
	}
	size_t n = sp->width - len, nl = 0, nr = 0;
	if (sp->left)
		nr = n;
	else if (sp->center) {
		nr = nl = n / 2;
		nl += n % 2;
	} else
		nl = n;
	char pad = sp->zero ? '0' : ' ';
	put_pad(w, pad, nl);
	out_mem(w, text, len);
	put_pad(w, pad, nr);
}

void tk_safe_format(tk_writer *tw, tk_fmt_dialect dialect, const char *fmt, size_t fmt_len,
		    const tk_fmt_arg *args, size_t n_args)
{
	out ow = {.w = tw};
	out *w = &ow;
	const char *end = memchr(fmt, 0, fmt_len);
	size_t n = end ? (size_t)(end - fmt) : fmt_len;
	size_t next_arg = 0;
	size_t i = 0;
	while (i < n) {
		const char *pct = memchr(fmt + i, '%', n - i);
		size_t lit_end = pct ? (size_t)(pct - fmt) : n;
		out_mem(w, fmt + i, lit_end - i);
		i = lit_end;
		if (i >= n)
			break;
		/* fmt[i] == '%' */
		if (i + 1 < n && fmt[i + 1] == '%') {
			out_char(w, '%');
			i += 2;
			continue;
		}
		spec sp;
		size_t used = dialect == TK_FMT_PRINTF
				  ? parse_printf(fmt + i + 1, n - i - 1, &sp)
				  : parse_vppinfra(fmt + i + 1, n - i - 1, &sp);
		if (!used) {
			/* %n, %*d, unknown or cut conversions: shown as text */
			out_char(w, '%');
			i++;
			continue;
		}
		const tk_fmt_arg *a = next_arg < n_args ? &args[next_arg] : NULL;
		next_arg++;
		if (dialect == TK_FMT_VPPINFRA) {
			fmt_vppinfra(w, &sp, a);
		} else {
			switch (sp.conv) {
			case 's': fmt_string(w, &sp, a, dialect); break;
			case 'c': {
				char c = (char)arg_bits(a);
				size_t pad = sp.width > 1 ? sp.width - 1 : 0;
				if (!sp.left)
					put_pad(w, ' ', pad);
				out_char(w, c);
				if (sp.left)
					put_pad(w, ' ', pad);
				break;
			}
			case 'f':
			case 'F':
			case 'e':
			case 'E':
			case 'g':
			case 'G': fmt_float(w, &sp, a, dialect); break;
			default: fmt_int_printf(w, &sp, a); break;
			}
		}
		i += 1 + used;
	}
}

void tk_safe_format_u32(tk_writer *w, tk_fmt_dialect dialect, const char *fmt, uint32_t v)
{
	tk_fmt_arg a = {.kind = TK_FMT_ARG_INT, .u = v};
	tk_safe_format(w, dialect, fmt, strlen(fmt), &a, 1);
}
