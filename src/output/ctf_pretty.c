/* babeltrace2 pretty output for CTF events (see ctf_pretty.h). */
#include "output/ctf_pretty.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define NS_PER_S 1000000000LL

static void put_9digits(tk_writer *w, uint64_t v);

void ctf_pretty_init(ctf_pretty *p, tk_writer *w, bool gmt)
{
	memset(p, 0, sizeof *p);
	p->w = w;
	p->gmt = gmt;
}

void ctf_pretty_fini(ctf_pretty *p)
{
	for (size_t i = 0; i < CTF_PRETTY_LINES; i++)
		free(p->lines[i].text);
	for (size_t i = 0; i < p->struct_cap; i++) {
		ctf_pretty_struct *t = p->structs[i];
		if (t) {
			for (uint32_t k = 0; k < t->n; k++)
				if (t->m[k].em) {
					free(t->m[k].em->text);
					free(t->m[k].em);
				}
			free(t->text);
			free(t->m);
			free(t);
		}
	}
	free(p->structs);
	p->structs = NULL;
	p->struct_cap = p->n_structs = 0;
	tk_writer_abort(p->prefix);
	p->prefix = NULL;
	tk_writer_abort(p->scratch);
	p->scratch = NULL;
}

static void put_2d(char *b, int v)
{
	b[0] = (char)('0' + v / 10 % 10);
	b[1] = (char)('0' + v % 10);
}

/* babeltrace2's print_timestamp_wall. */
static void put_wall(ctf_pretty *p, tk_writer *w, int64_t ns)
{
	int64_t ts_sec = ns / NS_PER_S, ts_nsec = ns % NS_PER_S;
	uint64_t sec_abs, nsec_abs;
	bool neg;
	if (ts_sec >= 0 && ts_nsec >= 0) {
		neg = false;
		sec_abs = (uint64_t)ts_sec;
		nsec_abs = (uint64_t)ts_nsec;
	} else if (ts_sec > 0 && ts_nsec < 0) {
		neg = false;
		sec_abs = (uint64_t)(ts_sec - 1);
		nsec_abs = (uint64_t)(NS_PER_S + ts_nsec);
	} else if (ts_sec == 0 && ts_nsec < 0) {
		neg = true;
		sec_abs = 0;
		nsec_abs = (uint64_t)-ts_nsec;
	} else if (ts_sec < 0 && ts_nsec > 0) {
		neg = true;
		sec_abs = (uint64_t) - (ts_sec + 1);
		nsec_abs = (uint64_t)(NS_PER_S - ts_nsec);
	} else if (ts_sec < 0 && ts_nsec == 0) {
		neg = true;
		sec_abs = (uint64_t)-ts_sec;
		nsec_abs = 0;
	} else {
		neg = true;
		sec_abs = (uint64_t)-ts_sec;
		nsec_abs = (uint64_t)-ts_nsec;
	}
	if (neg) {
		if (!p->neg_warned) {
			if (p->log)
				p->log(p->log_user, 0,
				       "Fallback to [sec.ns] to print negative time value");
			p->neg_warned = true;
		}
		tk_put_str(w, "-");
		tk_put_u64(w, sec_abs);
		tk_put_char(w, '.');
		put_9digits(w, nsec_abs);
		return;
	}
	time_t key = (time_t)sec_abs;
	if (!p->have_tm || p->tm_sec_key != key) {
		struct tm tm;
		bool ok = p->gmt ? gmtime_r(&key, &tm) != NULL : localtime_r(&key, &tm) != NULL;
		if (!ok) {
			tk_put_u64(w, sec_abs);
			tk_put_char(w, '.');
			put_9digits(w, nsec_abs);
			return;
		}
		put_2d(p->hms, tm.tm_hour);
		p->hms[2] = ':';
		put_2d(p->hms + 3, tm.tm_min);
		p->hms[5] = ':';
		put_2d(p->hms + 6, tm.tm_sec);
		p->tm_sec_key = key;
		p->have_tm = true;
	}
	tk_put_mem(w, p->hms, 8);
	tk_put_char(w, '.');
	put_9digits(w, nsec_abs);
}

/* What babeltrace2's print_escape_string does with each byte:
 * 0 = copy, 1 = two-character escape, 2 = \xNN, 3 = NUL (end of string). */
static const uint8_t esc_kind[256] = {
    [0] = 3,   [1] = 2,    [2] = 2,   [3] = 2,    [4] = 2,   [5] = 2,  [6] = 2,  [7] = 1,
    [8] = 1,   [9] = 1,    [10] = 1,  [11] = 1,   [12] = 1,  [13] = 1, [14] = 2, [15] = 2,
    [16] = 2,  [17] = 2,   [18] = 2,  [19] = 2,   [20] = 2,  [21] = 2, [22] = 2, [23] = 2,
    [24] = 2,  [25] = 2,   [26] = 2,  [27] = 1,   [28] = 2,  [29] = 2, [30] = 2, [31] = 2,
    ['"'] = 1, ['\''] = 1, ['?'] = 1, ['\\'] = 1, [127] = 2,
};

static const char esc_char[256] = {
    [7] = 'a',  [8] = 'b',  [9] = 't',   [10] = 'n',    [11] = 'v',  [12] = 'f',
    [13] = 'r', [27] = 'e', ['"'] = '"', ['\''] = '\'', ['?'] = '?', ['\\'] = '\\',
};

/* True when no byte of x has a nonzero esc_kind: none below 0x20 (which
 * includes NUL) and none of '"', '\'', '?', '\\', 0x7f. Bytes of 0x80 and
 * above are copied, as babeltrace2 does. Classic SWAR tests: a byte below
 * n sets its high bit in (x - n*ones) & ~x; a byte equal to v is a zero
 * byte of x ^ v*ones. */
static inline bool word_is_plain(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
#define TK_HAS_BYTE(v) (((x ^ (ones * (v))) - ones) & ~(x ^ (ones * (v))) & highs)
	uint64_t hit = ((x - ones * 0x20) & ~x & highs) | TK_HAS_BYTE('"') | TK_HAS_BYTE('\'') |
		       TK_HAS_BYTE('?') | TK_HAS_BYTE('\\') | TK_HAS_BYTE(0x7f);
#undef TK_HAS_BYTE
	return hit == 0;
}

#ifdef __SSE2__
/* The lanes of v holding a byte the printer escapes (below 0x20, 0x7f,
 * '"', '\'', '?', '\\'); the signed compare also flags 0x80 and above. */
static inline int special_lanes(__m128i v)
{
	__m128i hit =
	    _mm_or_si128(_mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)),
				      _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f))),
			 _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
						   _mm_cmpeq_epi8(v, _mm_set1_epi8('\''))),
				      _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('?')),
						   _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')))));
	return _mm_movemask_epi8(hit);
}
#endif

/* word_is_plain for the words of short strings (one or two per string):
 * with SSE2, block_is_plain's compares on the word's 8 lanes (the upper 8
 * are zero, below 0x20, and masked off), fewer instructions than the SWAR
 * tests. Bytes of 0x80 and above are flagged there; a short string with
 * one takes the byte-wise path, which copies them. Long strings keep the
 * SWAR test, which passes such bytes (UTF-8 text stays on the word path). */
static inline bool short_word_is_plain(uint64_t x)
{
#ifdef __SSE2__
	return (special_lanes(_mm_cvtsi64_si128((long long)x)) & 0xff) == 0;
#else
	return word_is_plain(x);
#endif
}

#ifdef __SSE2__
/* word_is_plain for 16 bytes. The signed compare also flags bytes of 0x80
 * and above; those few take the byte-wise path, which copies them. */
static inline bool block_is_plain(const char *p)
{
	return special_lanes(_mm_loadu_si128((const __m128i *)(const void *)p)) == 0;
}
#endif

/* One byte as babeltrace2 prints it inside quotes, at o; returns the end,
 * or NULL for NUL, where its strings end. */
static inline char *put_escaped(char *o, unsigned char c)
{
	static const char hx[] = "0123456789abcdef";
	switch (esc_kind[c]) {
	case 0: *o = (char)c; return o + 1;
	case 1:
		o[0] = '\\';
		o[1] = esc_char[c];
		return o + 2;
	case 2:
		o[0] = '\\';
		o[1] = 'x';
		o[2] = hx[c >> 4];
		o[3] = hx[c & 15];
		return o + 4;
	default: return NULL;
	}
}

void ctf_put_escaped(tk_writer *w, const char *s, size_t n)
{
	/* worst case 4 output bytes per input byte */
	if (n > ((size_t)1 << 28) || !tk_writer_reserve(w, 4 * n + 18))
		return;
	char *o = w->buf + w->pos;
	*o++ = '"';
	/* Short strings (names, words) below a block: one or two words
	 * checked at once, a short one padded with a plain byte. */
	if (n < 16) {
		/* Fixed-size loads that overlap (never a variable-length copy:
		 * its stores, read back at once, stall the load); a word shorter
		 * than 8 bytes is padded with a plain byte for the check. */
		const uint64_t pad = 0x6161616161616161ull;
		if (n >= 8) {
			uint64_t x, y;
			memcpy(&x, s, 8);
			memcpy(&y, s + n - 8, 8);
			if (short_word_is_plain(x) && short_word_is_plain(y)) {
				memcpy(o, &x, 8);
				memcpy(o + n - 8, &y, 8);
				o[n] = '"';
				w->pos = (size_t)(o + n + 1 - w->buf);
				return;
			}
		} else if (n >= 4) {
			uint32_t a, b;
			memcpy(&a, s, 4);
			memcpy(&b, s + n - 4, 4);
			if (short_word_is_plain((uint64_t)a | (uint64_t)b << 32)) {
				memcpy(o, &a, 4);
				memcpy(o + n - 4, &b, 4);
				o[n] = '"';
				w->pos = (size_t)(o + n + 1 - w->buf);
				return;
			}
		} else if (n > 0) {
			uint8_t c0 = (uint8_t)s[0], c1 = (uint8_t)s[n / 2], c2 = (uint8_t)s[n - 1];
			uint64_t x = (pad << 24) | (uint64_t)c2 << 16 | (uint64_t)c1 << 8 | c0;
			if (short_word_is_plain(x)) {
				o[0] = (char)c0;
				o[n / 2] = (char)c1;
				o[n - 1] = (char)c2;
				o[n] = '"';
				w->pos = (size_t)(o + n + 1 - w->buf);
				return;
			}
		} else {
			*o++ = '"';
			w->pos = (size_t)(o - w->buf);
			return;
		}
	}
	if (n < 16) {
		/* a short string with a byte to escape: byte by byte, without
		 * the block and word checks of longer text */
		for (size_t i = 0; i < n; i++) {
			char *e = put_escaped(o, (unsigned char)s[i]);
			if (!e)
				break; /* babeltrace2 strings end at the first NUL */
			o = e;
		}
		*o++ = '"';
		w->pos = (size_t)(o - w->buf);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		/* Whole blocks while none of their bytes needs escaping (most
		 * text): one load, a few compares and one store per block. */
#ifdef __SSE2__
		while (i + 16 <= n && block_is_plain(s + i)) {
			memcpy(o, s + i, 16);
			o += 16;
			i += 16;
		}
		/* a tail shorter than a block: the last 16 bytes, overlapping
		 * bytes already checked. A plain block has no byte that was
		 * escaped, so the output of its first bytes is a copy of them:
		 * the block is stored over it (one fixed-size copy, no call) */
		if (i < n && n - i < 16 && block_is_plain(s + n - 16)) {
			memcpy(o - (i - (n - 16)), s + n - 16, 16);
			o += n - i;
			break;
		}
#endif
		uint64_t x;
		while (i + 8 <= n && (memcpy(&x, s + i, 8), word_is_plain(x))) {
			memcpy(o, &x, 8);
			o += 8;
			i += 8;
		}
		if (i == n)
			break;
		char *e = put_escaped(o, (unsigned char)s[i]);
		if (!e)
			break; /* babeltrace2 strings end at the first NUL */
		o = e;
	}
	*o++ = '"';
	w->pos = (size_t)(o - w->buf);
}

static const char digit_pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* v < 10^9 as exactly 9 digits. x / 10^8 as a 57-bit fixed-point number
 * (jeaiii's method): the integer part is the first digit, and each
 * multiplication of the fraction by 100 brings the next two up, so the
 * digits come from one chain of multiplications instead of dependent
 * divisions. Checked against division for every x below 10^9. */
static void put_9digits(tk_writer *w, uint64_t v)
{
	if (!tk_writer_reserve(w, 9))
		return;
	char *o = w->buf + w->pos;
	const uint64_t frac = ((uint64_t)1 << 57) - 1;
	uint64_t t = (uint64_t)(uint32_t)(v % 1000000000u) * 1441151881u; /* ceil(2^57 / 1e8) */
	o[0] = (char)('0' + (t >> 57));
	t = (t & frac) * 100;
	memcpy(o + 1, digit_pairs + 2 * (t >> 57), 2);
	t = (t & frac) * 100;
	memcpy(o + 3, digit_pairs + 2 * (t >> 57), 2);
	t = (t & frac) * 100;
	memcpy(o + 5, digit_pairs + 2 * (t >> 57), 2);
	t = (t & frac) * 100;
	memcpy(o + 7, digit_pairs + 2 * (t >> 57), 2);
	w->pos += 9;
}

/* 9 digits of v < 10^9 into o (see put_9digits). */
static inline void fmt_9digits(char *o, uint64_t v)
{
	const uint64_t frac = ((uint64_t)1 << 57) - 1;
	uint64_t t = v * 1441151881u; /* ceil(2^57 / 1e8) */
	o[0] = (char)('0' + (t >> 57));
	t = (t & frac) * 100;
	memcpy(o + 1, digit_pairs + 2 * (t >> 57), 2);
	t = (t & frac) * 100;
	memcpy(o + 3, digit_pairs + 2 * (t >> 57), 2);
	t = (t & frac) * 100;
	memcpy(o + 5, digit_pairs + 2 * (t >> 57), 2);
	t = (t & frac) * 100;
	memcpy(o + 7, digit_pairs + 2 * (t >> 57), 2);
}

static const uint64_t pow10_u64[20] = {1,
				       10,
				       100,
				       1000,
				       10000,
				       100000,
				       1000000,
				       10000000,
				       100000000,
				       1000000000,
				       10000000000ull,
				       100000000000ull,
				       1000000000000ull,
				       10000000000000ull,
				       100000000000000ull,
				       1000000000000000ull,
				       10000000000000000ull,
				       100000000000000000ull,
				       1000000000000000000ull,
				       10000000000000000000ull};

/* Number of decimal digits of u > 0: from the bit width (1233 / 4096 ~
 * log10(2)), at most one too many. */
static inline unsigned dec_len(uint64_t u)
{
	unsigned n = ((64u - (unsigned)__builtin_clzll(u)) * 1233u >> 12) + 1;
	return n - (u < pow10_u64[n - 1]);
}

/* The n digits (1 <= n <= 9) of v < 10^n into o, by fmt_9digits' chain
 * started at the leading group: v / 10^k as a 57-bit fixed-point number
 * (k = n - 1 or n - 2, even), whose integer part is the first one or two
 * digits; each multiplication of the fraction by 100 brings the next two
 * up. Stores go straight to o (a copy from a scratch block would stall
 * on store forwarding). Checked against printf for every v < 10^9. */
static inline void fmt_digits(char *o, uint64_t v, unsigned n)
{
	static const uint64_t scale[5] = {(uint64_t)1 << 57, 1441151880758559ull, 14411518807586ull,
					  144115188076ull, 1441151881ull};
	const uint64_t frac = ((uint64_t)1 << 57) - 1;
	unsigned k = (n - 1) & ~1u; /* digits after the leading group */
	uint64_t t = v * scale[k / 2];
	if ((n - k) == 1) {
		*o++ = (char)('0' + (t >> 57));
	} else {
		memcpy(o, digit_pairs + 2 * (t >> 57), 2);
		o += 2;
	}
	/* the k digits after it, two per step, entered at the first step
	 * (no loop counter) */
	char *q = o + k;
	switch (k) {
	case 8:
		t = (t & frac) * 100;
		memcpy(q - 8, digit_pairs + 2 * (t >> 57), 2);
		/* fall through */
	case 6:
		t = (t & frac) * 100;
		memcpy(q - 6, digit_pairs + 2 * (t >> 57), 2);
		/* fall through */
	case 4:
		t = (t & frac) * 100;
		memcpy(q - 4, digit_pairs + 2 * (t >> 57), 2);
		/* fall through */
	case 2:
		t = (t & frac) * 100;
		memcpy(q - 2, digit_pairs + 2 * (t >> 57), 2);
		/* fall through */
	default: break;
	}
}

static size_t fmt_dec_big(char *o, uint64_t u);

/* decimal without the writer's generic path: most values are small, so
 * one or two digits are written in place (inlined into the callers, no
 * call) and larger ones by fmt_dec_big. */
static inline __attribute__((always_inline)) size_t fmt_dec(char *o, uint64_t u)
{
	if (u < 10) {
		o[0] = (char)('0' + u);
		return 1;
	}
	if (u < 100) {
		memcpy(o, digit_pairs + 2 * u, 2);
		return 2;
	}
	return fmt_dec_big(o, u);
}

/* u >= 100: the digit count first, then the digits straight into o
 * (below 10^18 without a division loop). */
static __attribute__((noinline)) size_t fmt_dec_big(char *o, uint64_t u)
{
	unsigned n = dec_len(u);
	if (n <= 9) {
		fmt_digits(o, u, n);
		return n;
	}
	if (n <= 18) {
		uint64_t hi = u / 1000000000u, lo = u % 1000000000u;
		fmt_digits(o, hi, n - 9);
		fmt_9digits(o + n - 9, lo);
		return n;
	}
	/* 19 or 20 digits: by pairs from the last */
	char *e = o + n;
	while (u >= 100) {
		e -= 2;
		memcpy(e, digit_pairs + 2 * (u % 100), 2);
		u /= 100;
	}
	if (u >= 10)
		memcpy(e - 2, digit_pairs + 2 * u, 2);
	else
		e[-1] = (char)('0' + u);
	return n;
}

static inline void put_dec(tk_writer *w, uint64_t u)
{
	if (!tk_writer_reserve(w, 20))
		return;
	w->pos += fmt_dec(w->buf + w->pos, u);
}

void ctf_put_dec(tk_writer *w, uint64_t u)
{
	put_dec(w, u);
}

/* A copy from our own prebuilt text, whose allocation has 16 spare
 * bytes after it: whole 16-byte blocks with fixed-size copies (no libc
 * call, no byte loop), the writer's position moved by n only. */
#define TK_PAD 16
static inline void put_padded(tk_writer *w, const char *s, size_t n)
{
	if (!tk_writer_reserve(w, n + TK_PAD)) {
		tk_put_mem(w, s, n);
		return;
	}
	char *o = w->buf + w->pos;
	memcpy(o, s, 16); /* most texts: one block */
	for (size_t i = 16; i < n; i += 16)
		memcpy(o + i, s + i, 16);
	w->pos += n;
}

/* short copies inline: field names, separators */
static inline void put_short(tk_writer *w, const char *s, size_t n)
{
	if (n > 32 || !tk_writer_reserve(w, n)) {
		tk_put_mem(w, s, n);
		return;
	}
	char *o = w->buf + w->pos;
	for (size_t i = 0; i < n; i++)
		o[i] = s[i];
	w->pos += n;
}

/* babeltrace2's hexadecimal integer, "0x" and upper-case digits without
 * leading zeros, of a field of len bits: a negative value shows its bits
 * up to the next multiple of 4. At most 18 bytes at o. */
static inline size_t fmt_hex(char *o, uint64_t u, unsigned len)
{
	static const char hx[] = "0123456789ABCDEF";
	if (len < 64) {
		unsigned r = (len + 3) & ~3u;
		if (r < 64)
			u &= ((uint64_t)1 << r) - 1;
	}
	/* digits from the bit width: (bits + 3) / 4, one for zero */
	unsigned nd = u ? (67u - (unsigned)__builtin_clzll(u)) / 4 : 1;
	o[0] = '0';
	o[1] = 'x';
	for (unsigned i = nd; i-- > 0;) {
		o[2 + i] = hx[u & 15];
		u >>= 4;
	}
	return nd + 2;
}

static inline void put_hex(tk_writer *w, uint64_t u, unsigned len)
{
	if (tk_writer_reserve(w, 18))
		w->pos += fmt_hex(w->buf + w->pos, u, len);
}

static void put_int(tk_writer *w, const ctf_fc *fc, uint64_t u)
{
	unsigned len = fc->size;
	switch (fc->base) {
	case 2:
		tk_put_str(w, "0b");
		tk_put_bin(w, len < 64 ? u & (((uint64_t)1 << len) - 1) : u, len);
		break;
	case 8:
		if (fc->is_signed && len < 64) {
			unsigned r = ((len - 1) / 3 + 1) * 3;
			if (r < 64)
				u &= ((uint64_t)1 << r) - 1;
		}
		tk_put_char(w, '0');
		tk_put_oct(w, u);
		break;
	case 16: put_hex(w, u, len); break;
	default:
		if (fc->is_signed && (int64_t)u < 0) {
			tk_put_char(w, '-');
			put_dec(w, (uint64_t)0 - u);
		} else {
			put_dec(w, u);
		}
		break;
	}
}

static bool in_range(const ctf_fc *fc, uint64_t u, const ctf_mapping *m)
{
	if (fc->is_signed)
		return (int64_t)u >= m->lo && (int64_t)u <= m->hi;
	return u >= (uint64_t)m->lo && u <= (uint64_t)m->hi;
}

static void put_enum(tk_writer *w, const ctf_fc *fc, uint64_t u)
{
	tk_put_str(w, "( ");
	size_t printed = 0;
	/* one label per distinct name, in order of first declaration */
	for (size_t i = 0; i < fc->n_maps; i++) {
		const char *label = fc->maps[i].label;
		bool match;
		if (fc->maps_unique) {
			match = in_range(fc, u, &fc->maps[i]);
		} else {
			bool seen = false;
			for (size_t j = 0; j < i && !seen; j++)
				seen = !strcmp(fc->maps[j].label, label);
			if (seen)
				continue;
			match = false;
			for (size_t j = i; j < fc->n_maps && !match; j++)
				match = !strcmp(fc->maps[j].label, label) &&
					in_range(fc, u, &fc->maps[j]);
		}
		if (!match)
			continue;
		if (printed++)
			tk_put_str(w, ", ");
		ctf_put_escaped(w, label, strlen(label));
	}
	if (!printed)
		tk_put_str(w, "<unknown>");
	tk_put_str(w, " : container = ");
	put_int(w, fc, u);
	tk_put_str(w, " )");
}

static int label_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* CTF 2 bit map: the value in hex, then the labels of the flags with a
 * set bit, sorted and each once, as babeltrace 2.1 prints them. */
static void put_bitmap(tk_writer *w, const ctf_fc *fc, uint64_t u)
{
	put_int(w, fc, u);
	const char *on[256];
	size_t n = 0;
	for (size_t i = 0; i < fc->n_maps; i++) {
		const ctf_mapping *m = &fc->maps[i];
		uint64_t lo = (uint64_t)m->lo, hi = (uint64_t)m->hi;
		uint64_t mask = hi >= 63 ? ~(uint64_t)0 : (((uint64_t)1 << (hi + 1)) - 1);
		mask &= ~((lo >= 64 ? 0 : ((uint64_t)1 << lo)) - 1);
		if (!(u & mask))
			continue;
		bool dup = false;
		for (size_t k = 0; k < n && !dup; k++)
			dup = !strcmp(on[k], m->label);
		if (!dup && n < sizeof on / sizeof on[0])
			on[n++] = m->label;
	}
	if (!n)
		return;
	qsort(on, n, sizeof on[0], label_cmp);
	tk_put_str(w, " {");
	for (size_t k = 0; k < n; k++) {
		tk_put_str(w, k ? ", " : " ");
		ctf_put_escaped(w, on[k], strlen(on[k]));
	}
	tk_put_str(w, " }");
}

/* Bytes as hexadecimal: blobs, and LEB128 integers beyond 64 bits (their
 * value, most significant group first: 7 bits per encoded byte). */
static void put_hex_bytes(tk_writer *w, const uint8_t *p, size_t n)
{
	static const char hx[] = "0123456789abcdef";
	tk_put_str(w, "0x");
	for (size_t i = 0; i < n; i++) {
		char b[2] = {hx[p[i] >> 4], hx[p[i] & 15]};
		tk_put_mem(w, b, 2);
	}
}

static void put_big_leb128(tk_writer *w, const uint8_t *p, size_t n)
{
	/* binary digits from the groups, then hex from the most significant */
	static const char hx[] = "0123456789ABCDEF";
	size_t bits = n * 7;
	size_t nd = (bits + 3) / 4;
	bool started = false;
	tk_put_str(w, "0x");
	for (size_t d = nd; d-- > 0;) {
		unsigned v = 0;
		for (unsigned k = 4; k-- > 0;) {
			size_t bit = d * 4 + k;
			unsigned x = bit < bits ? (p[bit / 7] >> (bit % 7)) & 1 : 0;
			v = v << 1 | x;
		}
		if (!v && !started && d)
			continue;
		started = true;
		tk_put_char(w, hx[v]);
	}
}

/* How a value is printed: the common kinds directly, MK_ANY through
 * put_value. Array elements use the kinds up to MK_HEX; structure
 * members also MK_ENUM and MK_INTS (member_kind). */
enum { MK_ANY, MK_UDEC, MK_SDEC, MK_STR, MK_FLOAT, MK_HEX, MK_ENUM, MK_INTS };

static int value_kind(const ctf_fc *f)
{
	if (f->type == CTF_FC_STRING)
		return MK_STR;
	if (f->type == CTF_FC_FLOAT)
		return MK_FLOAT;
	if ((f->type == CTF_FC_ARRAY || f->type == CTF_FC_SEQUENCE) && f->elem_is_text)
		return MK_STR; /* its value is the text, as a string's */
	if (f->type == CTF_FC_INT && !f->varint && !f->is_bitmap && !f->is_bool && f->base != 2 &&
	    f->base != 8)
		return f->base == 16 ? MK_HEX : f->is_signed ? MK_SDEC : MK_UDEC;
	return MK_ANY;
}

static int member_kind(const ctf_fc *f)
{
	if (f->type == CTF_FC_ENUM && !f->varint)
		return MK_ENUM;
	if ((f->type == CTF_FC_ARRAY || f->type == CTF_FC_SEQUENCE) && !f->elem_is_text &&
	    !f->is_blob) {
		int ek = value_kind(f->elem);
		if (ek == MK_UDEC || ek == MK_SDEC)
			return MK_INTS;
	}
	return value_kind(f);
}

/* A value of a kind from MK_UDEC to MK_HEX, without put_value's
 * dispatch; fc is its class. */
static inline void put_kind(tk_writer *w, int kind, const ctf_fc *fc, const tk_value *v)
{
	switch (kind) {
	case MK_UDEC: put_dec(w, v->v.u); break;
	case MK_SDEC:
		if ((int64_t)v->v.u < 0) {
			tk_put_char(w, '-');
			put_dec(w, (uint64_t)0 - v->v.u);
		} else {
			put_dec(w, v->v.u);
		}
		break;
	case MK_FLOAT: ctf_put_double_g(w, v->v.f); break;
	case MK_HEX: put_hex(w, v->v.u, fc->size); break;
	default: ctf_put_escaped(w, v->v.str.ptr, v->v.str.len); break;
	}
}

/* An array or sequence of decimal integers, "[ [0] = 1, [1] = -2 ]" or
 * "[ ]": each element's index text and digits in one reserved run. */
/* the text before each of an array's first ten elements (8 bytes each,
 * the first one 7) */
static const char elem_pfx[10][8] = {" [0] = ",  ", [1] = ", ", [2] = ", ", [3] = ", ", [4] = ",
				     ", [5] = ", ", [6] = ", ", [7] = ", ", [8] = ", ", [9] = "};

static void put_int_list(tk_writer *w, const tk_value *v, bool is_signed)
{
	const tk_value *items = v->v.list.items;
	size_t n = v->v.list.n;
	tk_put_char(w, '[');
	for (size_t i = 0; i < n; i++) {
		/* ", [" index "] = " '-' digits: at most 3 + 20 + 4 + 1 + 20 */
		if (!tk_writer_reserve(w, 48))
			return;
		char *o = w->buf + w->pos;
		if (i < 10) {
			memcpy(o, elem_pfx[i], 8);
			o += i ? 8 : 7;
		} else {
			memcpy(o, ", [", 3);
			o += 3;
			o += fmt_dec(o, i);
			memcpy(o, "] = ", 4);
			o += 4;
		}
		uint64_t u = items[i].v.u;
		if (is_signed && (int64_t)u < 0) {
			*o++ = '-';
			u = (uint64_t)0 - u;
		}
		o += fmt_dec(o, u);
		w->pos = (size_t)(o - w->buf);
	}
	tk_put_lit(w, " ]");
}

/* The whole text of an enumeration value below CTF_PRETTY_ENUM_MEMO,
 * "( \"RED\" : container = 0 )", is a function of the value: it is built
 * by put_enum the first time the value is met and copied afterwards.
 * False when out of memory (the caller prints with put_enum). */
static bool enum_memo_fill(ctf_pretty *p, ctf_pretty_enum *em, const ctf_fc *fc, uint64_t u)
{
	tk_writer *s = p->scratch;
	if (!s && tk_writer_open_memory(&p->scratch, NULL) != TK_OK)
		return false;
	s = p->scratch;
	s->pos = 0;
	put_enum(s, fc, u);
	size_t len;
	const char *text = tk_writer_data(s, &len);
	if (!len || len >= UINT32_MAX - em->used - TK_PAD)
		return false;
	char *grown = realloc(em->text, em->used + len + TK_PAD);
	if (!grown)
		return false;
	em->text = grown;
	memcpy(grown + em->used, text, len);
	memset(grown + em->used + len, 0, TK_PAD);
	em->off[u] = (uint32_t)em->used;
	em->len[u] = (uint32_t)len;
	em->used += len;
	return true;
}

static void put_enum_member(ctf_pretty *p, tk_writer *w, const ctf_pretty_member *m, uint64_t u)
{
	ctf_pretty_enum *em = m->em;
	if (em && u < CTF_PRETTY_ENUM_MEMO && (em->len[u] || enum_memo_fill(p, em, m->fc, u)))
		put_padded(w, em->text + em->off[u], em->len[u]);
	else
		put_enum(w, m->fc, u);
}

/* The separators of a structure's printed members, "{ a = " then
 * ", b = " ..., built once per structure class into a direct-mapped
 * cache so each member costs one copy instead of three. NULL when out of
 * memory (the caller then builds them per field). */
static size_t struct_slot(const ctf_pretty *p, const void *fc)
{
	size_t i = ((uintptr_t)fc >> 4) * 0x9E3779B97F4A7C15ull >> 7;
	for (i &= p->struct_cap - 1; p->structs[i] && p->structs[i]->fc != fc;
	     i = (i + 1) & (p->struct_cap - 1))
		;
	return i;
}

/* Templates live until ctf_pretty_fini (never evicted: a nested
 * structure's lookup must not free the one its parent is printing with),
 * in an open-addressing table of pointers kept at most half full. */
static const ctf_pretty_struct *struct_tmpl(ctf_pretty *p, const ctf_fc *fc)
{
	if (p->struct_cap) {
		ctf_pretty_struct *hit = p->structs[struct_slot(p, fc)];
		if (hit)
			return hit;
	}
	if (2 * (p->n_structs + 1) > p->struct_cap) {
		size_t cap = p->struct_cap ? 2 * p->struct_cap : 64;
		ctf_pretty_struct **old = p->structs;
		size_t old_cap = p->struct_cap;
		p->structs = calloc(cap, sizeof *p->structs);
		if (!p->structs) {
			p->structs = old;
			return NULL;
		}
		p->struct_cap = cap;
		for (size_t i = 0; i < old_cap; i++)
			if (old[i])
				p->structs[struct_slot(p, old[i]->fc)] = old[i];
		free(old);
	}
	size_t total = 0, n_ir = 0;
	for (size_t i = 0; i < fc->n_members; i++)
		if (fc->members[i].fc->in_ir) {
			total += fc->members[i].name_len + 5;
			n_ir++;
		}
	if (fc->n_members >= UINT32_MAX || total >= UINT32_MAX)
		return NULL;
	ctf_pretty_struct *t = malloc(sizeof *t);
	char *text = malloc(total + TK_PAD);
	ctf_pretty_member *mem = malloc((n_ir ? n_ir : 1) * sizeof *mem);
	if (!t || !text || !mem) {
		free(t);
		free(text);
		free(mem);
		return NULL;
	}
	size_t n = 0, k = 0;
	for (size_t i = 0; i < fc->n_members; i++) {
		const ctf_member *m = &fc->members[i];
		const ctf_fc *mf = m->fc;
		if (!mf->in_ir)
			continue;
		mem[k].off = (uint32_t)n;
		mem[k].len = (uint32_t)(m->name_len + 5);
		mem[k].index = (uint32_t)i;
		mem[k].kind = (uint8_t)member_kind(mf);
		mem[k].elem_signed = mem[k].kind == MK_INTS && mf->elem->is_signed;
		mem[k].fc = mf;
		/* an enumeration's memo; none when out of memory */
		mem[k].em = mem[k].kind == MK_ENUM ? calloc(1, sizeof(ctf_pretty_enum)) : NULL;
		k++;
		memcpy(text + n, k == 1 ? "{ " : ", ", 2);
		memcpy(text + n + 2, m->name, m->name_len);
		memcpy(text + n + 2 + m->name_len, " = ", 3);
		n += m->name_len + 5;
	}
	memset(text + n, 0, TK_PAD);
	t->fc = fc;
	t->text = text;
	t->m = mem;
	t->n = (uint32_t)k;
	p->structs[struct_slot(p, fc)] = t;
	p->n_structs++;
	return t;
}

static void put_value(ctf_pretty *p, tk_writer *w, const ctf_fc *fc, const tk_value *v,
		      unsigned depth);

/* A structure value with its class's template: the members kept in the
 * IR, while the value has them. */
static void put_struct(ctf_pretty *p, tk_writer *w, const ctf_pretty_struct *t, const tk_value *v,
		       unsigned depth)
{
	const ctf_pretty_member *m = t->m, *e = m + t->n;
	const tk_value *items = v->v.list.items;
	size_t nv = v->v.list.n;
	if (m == e || m->index >= nv)
		tk_put_char(w, '{');
	for (; m < e && m->index < nv; m++) {
		if ((m->kind == MK_UDEC || m->kind == MK_SDEC) &&
		    tk_writer_reserve(w, m->len + TK_PAD + 21)) {
			/* the commonest member, an integer in decimal: separator
			 * and digits in one reserved run */
			char *o = w->buf + w->pos;
			const char *sep = t->text + m->off;
			for (size_t i = 0; i < m->len; i += 16)
				memcpy(o + i, sep + i, 16);
			o += m->len;
			uint64_t u = items[m->index].v.u;
			if (m->kind == MK_SDEC && (int64_t)u < 0) {
				*o++ = '-';
				u = (uint64_t)0 - u;
			}
			o += fmt_dec(o, u);
			w->pos = (size_t)(o - w->buf);
			continue;
		}
		put_padded(w, t->text + m->off, m->len);
		const tk_value *mv = &items[m->index];
		switch (m->kind) {
		case MK_STR: ctf_put_escaped(w, mv->v.str.ptr, mv->v.str.len); break;
		case MK_ANY: put_value(p, w, m->fc, mv, depth + 1); break;
		case MK_ENUM: put_enum_member(p, w, m, mv->v.u); break;
		case MK_INTS: put_int_list(w, mv, m->elem_signed); break;
		default: put_kind(w, m->kind, m->fc, mv); break;
		}
	}
	tk_put_lit(w, " }");
}

static void put_value(ctf_pretty *p, tk_writer *w, const ctf_fc *fc, const tk_value *v,
		      unsigned depth)
{
	switch (fc->type) {
	case CTF_FC_INT:
		if (fc->varint && v->cls && v->cls->kind == TK_TYPE_BYTES)
			put_big_leb128(w, (const uint8_t *)v->v.str.ptr, v->v.str.len);
		else if (fc->is_bitmap)
			put_bitmap(w, fc, v->v.u);
		else if (fc->is_bool)
			tk_put_str(w, v->v.u ? "true" : "false");
		else
			put_int(w, fc, v->v.u);
		return;
	case CTF_FC_ENUM:
		if (fc->varint && v->cls && v->cls->kind == TK_TYPE_BYTES)
			put_big_leb128(w, (const uint8_t *)v->v.str.ptr, v->v.str.len);
		else
			put_enum(w, fc, v->v.u);
		return;
	case CTF_FC_FLOAT: ctf_put_double_g(w, v->v.f); return;
	case CTF_FC_STRING: ctf_put_escaped(w, v->v.str.ptr, v->v.str.len); return;
	case CTF_FC_STRUCT: {
		const ctf_pretty_struct *t = struct_tmpl(p, fc);
		if (t) {
			put_struct(p, w, t, v, depth);
			return;
		}
		tk_put_char(w, '{');
		size_t printed = 0;
		for (size_t i = 0; i < fc->n_members && i < v->v.list.n; i++) {
			const ctf_member *m = &fc->members[i];
			if (!m->fc->in_ir)
				continue;
			if (printed++)
				put_short(w, ", ", 2);
			else
				tk_put_char(w, ' ');
			put_short(w, m->name, m->name_len);
			put_short(w, " = ", 3);
			put_value(p, w, m->fc, &v->v.list.items[i], depth + 1);
		}
		tk_put_str(w, " }");
		return;
	}
	case CTF_FC_VARIANT:
		if (fc->is_optional && v->v.list.index == 0) {
			tk_put_str(w, "<none>"); /* babeltrace 2's text of an absent option */
			return;
		}
		tk_put_str(w, "{ ");
		if (v->v.list.n == 1 && v->v.list.index < fc->n_members)
			put_value(p, w, fc->members[v->v.list.index].fc, v->v.list.items,
				  depth + 1);
		tk_put_str(w, " }");
		return;
	case CTF_FC_ARRAY:
	case CTF_FC_SEQUENCE:
		if (fc->elem_is_text) {
			ctf_put_escaped(w, v->v.str.ptr, v->v.str.len);
			return;
		}
		if (fc->is_blob) {
			put_hex_bytes(w, (const uint8_t *)v->v.str.ptr, v->v.str.len);
			return;
		}
		int ek = value_kind(fc->elem);
		if (ek == MK_UDEC || ek == MK_SDEC) {
			put_int_list(w, v, ek == MK_SDEC);
			return;
		}
		tk_put_char(w, '[');
		for (size_t i = 0; i < v->v.list.n; i++) {
			if (i < 10 && tk_writer_reserve(w, 8)) {
				memcpy(w->buf + w->pos, elem_pfx[i], 8);
				w->pos += i ? 8 : 7;
			} else {
				put_short(w, ", [", 3);
				put_dec(w, i);
				put_short(w, "] = ", 4);
			}
			if (ek != MK_ANY)
				put_kind(w, ek, fc->elem, &v->v.list.items[i]);
			else
				put_value(p, w, fc->elem, &v->v.list.items[i], depth + 1);
		}
		tk_put_str(w, " ]");
		return;
	}
}

/* printf("%g") without printf: 6 significant digits, rounded in double
 * arithmetic. r = a * 10^p (or a / 10^-p) with an exact power of ten
 * (|p| <= 22) is one correctly rounded operation: below 10^7 its error is
 * under 2^-30 (~1e-9), and below 10^6, where a result is kept, under
 * 2^-33, far inside the 1e-9 margin around a rounding tie that sends the
 * value to printf. Near an integer the rounding is the same either way.
 * Magnitudes outside the exact powers also take the printf path. */
void ctf_put_double_g(tk_writer *w, double v)
{
	static const double p10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
				       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
				       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
	char buf[64];
	double a = fabs(v);
	/* whole numbers of at most 6 digits: %g prints exactly their digits */
	if (a >= 1 && a < 1e6 && a == (double)(uint32_t)a) {
		if (v < 0)
			tk_put_char(w, '-');
		put_dec(w, (uint32_t)a);
		return;
	}
	if (!(a > 0) || !isfinite(v) || a < 1e-16 || a >= 1e22)
		goto slow;
	/* the decimal exponent estimated from the binary one (a is normal
	 * here): at most one too low, which the loop below corrects; cheaper
	 * than log10 */
	uint64_t bits;
	memcpy(&bits, &a, sizeof bits);
	int e2 = (int)((bits >> 52) & 0x7ff) - 1023; /* a in [2^e2, 2^(e2+1)) */
	int x = (e2 * 78913) >> 18;                  /* floor(e2 * log10(2)), as in Ryu */
	uint64_t m = 0;
	for (int tries = 0; tries < 3; tries++) {
		int p = 5 - x;
		if (p < -22 || p > 22)
			goto slow;
		double r = p >= 0 ? a * p10[p] : a / p10[-p];
		if (!(r < 1e7))
			goto slow;         /* not from a one-too-low estimate */
		uint64_t fl = (uint64_t)r; /* floor: r >= 0 */
		double frac = r - (double)fl;
		if (fabs(frac - 0.5) < 1e-9)
			goto slow; /* a tie, or too close to tell */
		m = fl + (frac > 0.5);
		if (m >= 1000000)
			x++;
		else if (m < 100000)
			x--;
		else
			break;
	}
	if (m < 100000 || m >= 1000000)
		goto slow;
	char nine[16];        /* 9 digits, then room for the 8-byte copies below */
	fmt_9digits(nine, m); /* "000" and the 6 digits */
	memset(nine + 9, '0', 7);
	const char *digits = nine + 3;
	int nd = 6;
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	/* straight into the writer: a copy from a scratch buffer would
	 * reload bytes just stored one by one */
	if (!tk_writer_reserve(w, 32))
		return;
	char *ob = w->buf + w->pos;
	size_t n = 0;
	if (v < 0)
		ob[n++] = '-';
	if (x < -4 || x >= 6) {
		ob[n++] = digits[0];
		if (nd > 1) {
			ob[n++] = '.';
			for (int i = 1; i < nd; i++)
				ob[n++] = digits[i];
		}
		ob[n++] = 'e';
		ob[n++] = x < 0 ? '-' : '+';
		int ax = x < 0 ? -x : x;
		if (ax >= 100)
			ob[n++] = (char)('0' + ax / 100);
		ob[n++] = (char)('0' + ax / 10 % 10);
		ob[n++] = (char)('0' + ax % 10);
	} else if (x >= 0) {
		/* fixed 8-byte copies (digits has 13 readable bytes), the
		 * position moved by the digits kept: no byte loop, no call */
		memcpy(ob + n, digits, 8);
		n += (size_t)x + 1;
		if (nd > x + 1) {
			ob[n] = '.';
			memcpy(ob + n + 1, digits + x + 1, 8);
			n += (size_t)(nd - x);
		}
	} else {
		/* "0." and -x - 1 zeros (at most 3), then the digits */
		memcpy(ob + n, "0.000", 5);
		n += (size_t)(1 - x);
		memcpy(ob + n, digits, 8);
		n += (size_t)nd;
	}
	w->pos += n;
	return;
slow:;
	int k = snprintf(buf, sizeof buf, "%g", v);
	tk_put_mem(w, buf, k > 0 ? (size_t)k : 0);
}

static const tk_env_entry *env_get(const ctf_trace_class *tc, const char *key)
{
	for (size_t i = 0; i < tc->n_env; i++)
		if (!strcmp(tc->env[i].key, key))
			return &tc->env[i];
	return NULL;
}

/* "[HH:MM:SS.nnnnnnnnn] (+s.nnnnnnnnn) " written into one reserved run
 * when the time is a plain non-negative wall time whose broken-down
 * second is cached (almost every event); false sends the caller to the
 * general path. */
static bool put_stamp_fast(ctf_pretty *p, tk_writer *w, int64_t ns)
{
	if (ns < 0 || !p->have_tm || !p->have_last || ns < p->last_ns ||
	    (time_t)(ns / NS_PER_S) != p->tm_sec_key)
		return false;
	uint64_t delta = (uint64_t)ns - (uint64_t)p->last_ns;
	if (delta >= 100 * NS_PER_S || !tk_writer_reserve(w, 48))
		return false;
	char *o = w->buf + w->pos, *o0 = o;
	*o++ = '[';
	memcpy(o, p->hms, 8);
	o[8] = '.';
	fmt_9digits(o + 9, (uint64_t)(ns % NS_PER_S));
	o += 18;
	memcpy(o, "] (+", 4);
	o += 4;
	uint64_t ds = delta / NS_PER_S;
	if (ds >= 10) {
		memcpy(o, digit_pairs + 2 * ds, 2);
		o += 2;
	} else {
		*o++ = (char)('0' + ds);
	}
	*o++ = '.';
	fmt_9digits(o, delta % NS_PER_S);
	o += 9;
	memcpy(o, ") ", 2);
	o += 2;
	w->pos += (size_t)(o - o0);
	p->last_ns = ns;
	return true;
}

/* The "host:proc:(vpid) event-name: " run of an event class, built once
 * per (trace, class) into a small direct-mapped cache and copied as one
 * block per event. */
static const ctf_pretty_line *line_head(ctf_pretty *p, const ctf_event_out *ev)
{
	uintptr_t key = (uintptr_t)ev->ec ^ ((uintptr_t)ev->trace >> 4);
	ctf_pretty_line *l = &p->lines[(key >> 4) % CTF_PRETTY_LINES];
	if (l->ec == ev->ec && l->trace == ev->trace)
		return l;
	size_t plen;
	const char *pfx = tk_writer_data(p->prefix, &plen);
	const char *name = ev->ec->info.name ? ev->ec->info.name : "<unknown>";
	size_t nlen = strlen(name);
	char *text = realloc(l->text, plen + nlen + 2 + TK_PAD);
	if (!text)
		return NULL;
	memcpy(text, pfx, plen);
	memcpy(text + plen, name, nlen);
	memcpy(text + plen + nlen, ": ", 2);
	memset(text + plen + nlen + 2, 0, TK_PAD);
	l->text = text;
	l->len = plen + nlen + 2;
	const ctf_fc *scopes[4] = {ev->sc->packet_context, ev->sc->event_context, ev->ec->context,
				   ev->ec->payload};
	l->n_scopes = 0;
	for (unsigned i = 0; i < 4; i++) {
		if (!scopes[i] || !scopes[i]->in_ir)
			continue;
		l->scope[l->n_scopes] = (uint8_t)i;
		l->tmpl[l->n_scopes] =
		    scopes[i]->type == CTF_FC_STRUCT ? struct_tmpl(p, scopes[i]) : NULL;
		l->n_scopes++;
	}
	l->ec = ev->ec;
	l->trace = ev->trace;
	return l;
}

void ctf_pretty_event(ctf_pretty *p, const ctf_event_out *ev)
{
	tk_writer *w = p->w;
	const ctf_trace_class *tc = ev->trace->tc;
	if (ev->sc->clock >= 0 && !put_stamp_fast(p, w, ev->ns)) {
		tk_put_char(w, '[');
		put_wall(p, w, ev->ns);
		tk_put_str(w, "] (");
		if (p->have_last) {
			uint64_t delta = (uint64_t)ev->ns - (uint64_t)p->last_ns;
			tk_put_char(w, '+');
			tk_put_u64(w, delta / NS_PER_S);
			tk_put_char(w, '.');
			put_9digits(w, delta % NS_PER_S);
		} else {
			tk_put_str(w, "+?.?????????");
		}
		tk_put_str(w, ") ");
		p->last_ns = ev->ns;
		p->have_last = true;
	}
	if (p->prefix_trace != ev->trace) {
		/* hostname:procname:(vpid) from the trace env, built once per trace */
		tk_writer *pw = p->prefix;
		if (!pw && tk_writer_open_memory(&p->prefix, NULL) != TK_OK)
			return;
		pw = p->prefix;
		pw->pos = 0;
		bool dom = false;
		const tk_env_entry *e = env_get(tc, "hostname");
		if (e && !e->is_int) {
			tk_put_str(pw, e->str);
			dom = true;
		}
		e = env_get(tc, "procname");
		if (e && !e->is_int) {
			if (dom)
				tk_put_char(pw, ':');
			tk_put_str(pw, e->str);
			dom = true;
		}
		e = env_get(tc, "vpid");
		if (e && e->is_int) {
			if (dom)
				tk_put_char(pw, ':');
			tk_put_char(pw, '(');
			tk_put_i64(pw, e->i);
			tk_put_char(pw, ')');
			dom = true;
		}
		if (dom)
			tk_put_char(pw, ' ');
		p->prefix_trace = ev->trace;
	}
	const ctf_pretty_line *l = line_head(p, ev);
	if (l) {
		put_padded(w, l->text, l->len);
		const tk_value *vals[4] = {ev->packet_context, ev->common_context, ev->context,
					   ev->payload};
		bool start = true;
		for (unsigned k = 0; k < l->n_scopes; k++) {
			unsigned i = l->scope[k];
			if (!vals[i])
				continue;
			if (!start)
				put_short(w, ", ", 2);
			start = false;
			if (l->tmpl[k]) {
				put_struct(p, w, l->tmpl[k], vals[i], 0);
			} else {
				const ctf_fc *fc = i == 0   ? ev->sc->packet_context
						   : i == 1 ? ev->sc->event_context
						   : i == 2 ? ev->ec->context
							    : ev->ec->payload;
				put_value(p, w, fc, vals[i], 0);
			}
		}
		tk_put_char(w, '\n');
		return;
	} else {
		size_t plen;
		const char *pfx = tk_writer_data(p->prefix, &plen);
		tk_put_mem(w, pfx, plen);
		tk_put_str(w, ev->ec->info.name ? ev->ec->info.name : "<unknown>");
		tk_put_str(w, ": ");
	}
	bool start = true;
	const ctf_fc *scopes[4] = {ev->sc->packet_context, ev->sc->event_context, ev->ec->context,
				   ev->ec->payload};
	const tk_value *vals[4] = {ev->packet_context, ev->common_context, ev->context,
				   ev->payload};
	for (int i = 0; i < 4; i++) {
		if (!scopes[i] || !vals[i] || !scopes[i]->in_ir)
			continue;
		if (!start)
			tk_put_str(w, ", ");
		start = false;
		put_value(p, w, scopes[i], vals[i], 0);
	}
	tk_put_char(w, '\n');
}

void ctf_pretty_skip(ctf_pretty *p, const ctf_event_out *ev)
{
	if (ev->sc->clock >= 0) {
		p->last_ns = ev->ns;
		p->have_last = true;
	}
}

void ctf_pretty_discard(ctf_pretty *p, tk_writer *w, const ctf_discard *d)
{
	const ctf_stream *s = d->stream;
	const ctf_trace_class *tc = s->trace->tc;
	const char *elem = d->packets ? "packet" : "event";
	if (d->count == UINT64_MAX) {
		tk_put_str(w, "Tracer may have discarded ");
		tk_put_str(w, elem);
		tk_put_char(w, 's');
	} else {
		tk_put_str(w, "Tracer discarded ");
		tk_put_u64(w, d->count);
		tk_put_char(w, ' ');
		tk_put_str(w, elem);
		if (d->count != 1)
			tk_put_char(w, 's');
	}
	tk_put_char(w, ' ');
	if (d->has_range) {
		tk_put_str(w, "between [");
		put_wall(p, w, d->begin_ns);
		tk_put_str(w, "] and [");
		put_wall(p, w, d->end_ns);
		tk_put_char(w, ']');
	} else {
		tk_put_str(w, "(unknown time range)");
	}
	tk_put_str(w, " in trace \"");
	tk_put_str(w, s->trace->name);
	tk_put_str(w, "\" ");
	if (tc->has_uuid) {
		static const char hx[] = "0123456789abcdef";
		tk_put_str(w, "(UUID: ");
		for (int i = 0; i < 16; i++) {
			if (i == 4 || i == 6 || i == 8 || i == 10)
				tk_put_char(w, '-');
			tk_put_char(w, hx[tc->uuid[i] >> 4]);
			tk_put_char(w, hx[tc->uuid[i] & 15]);
		}
		tk_put_str(w, ") ");
	} else {
		tk_put_str(w, "(no UUID) ");
	}
	tk_put_str(w, "within stream \"");
	tk_put_str(w, s->name);
	tk_put_str(w, "\" (stream class ID: ");
	tk_put_u64(w, s->sc->id);
	tk_put_str(w, ", stream ID: ");
	tk_put_u64(w, s->stream_id);
	tk_put_str(w, ").");
}
