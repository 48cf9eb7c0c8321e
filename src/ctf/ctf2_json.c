/* Strict bounded JSON reader (see ctf2_json.h for the rules). Children of
 * the containers being parsed wait on one shared growable stack and are
 * copied into the arena when their container closes, so the arena holds
 * only the final tree and there is no per-container allocation. */
#include "ctf/ctf2_json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct jparser {
	tk_arena *a;
	const unsigned char *s;
	size_t len, pos;
	uint64_t base;
	tk_error *err;
	/* pending children: nodes (and keys for objects) */
	ctf2_json **stack;
	const char **kstack;
	size_t sn, scap;
} jparser;

static tk_status jerr(jparser *p, size_t pos, const char *what)
{
	return tk_error_set(p->err, TK_ERR_FORMAT, p->base + pos, "metadata: JSON: %s", what);
}

static tk_status jnomem(jparser *p)
{
	return tk_error_set(p->err, TK_ERR_NOMEM, p->base + p->pos,
			    "metadata: JSON: out of memory (or the metadata size limit)");
}

static void skip_ws(jparser *p)
{
	while (p->pos < p->len) {
		unsigned char c = p->s[p->pos];
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		p->pos++;
	}
}

static bool push(jparser *p, ctf2_json *v, const char *key)
{
	if (p->sn == p->scap) {
		size_t cap = p->scap ? p->scap * 2 : 64;
		ctf2_json **ns = realloc(p->stack, cap * sizeof *ns);
		if (!ns)
			return false;
		p->stack = ns;
		const char **nk = realloc(p->kstack, cap * sizeof *nk);
		if (!nk)
			return false;
		p->kstack = nk;
		p->scap = cap;
	}
	p->stack[p->sn] = v;
	p->kstack[p->sn] = key;
	p->sn++;
	return true;
}

static int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool read_hex4(jparser *p, size_t at, unsigned *out)
{
	if (p->len - at < 4)
		return false;
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		int h = hexval(p->s[at + (size_t)i]);
		if (h < 0)
			return false;
		v = v << 4 | (unsigned)h;
	}
	*out = v;
	return true;
}

/* Length of the valid UTF-8 sequence at s[0..n), 0 when invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t k;
	uint32_t cp;
	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF) {
		k = 2;
		cp = c & 0x1F;
	} else if (c >= 0xE0 && c <= 0xEF) {
		k = 3;
		cp = c & 0x0F;
	} else if (c >= 0xF0 && c <= 0xF4) {
		k = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (n < k)
		return 0;
	for (size_t i = 1; i < k; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3F);
	}
	if ((k == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
	    (k == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
		return 0;
	return k;
}

static size_t put_utf8(char *o, uint32_t cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xC0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xE0 | cp >> 12);
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		o[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (char)(0xF0 | cp >> 18);
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	o[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* p->pos at the opening quote. The decoded text is never longer than
 * the source, so one allocation of the source length suffices. */
static tk_status parse_string(jparser *p, const char **out, size_t *olen)
{
	size_t start = ++p->pos;
	size_t end = start;
	while (end < p->len && p->s[end] != '"') {
		if (p->s[end] == '\\')
			end++;
		end++;
	}
	if (end >= p->len)
		return jerr(p, start - 1, "unterminated string");
	char *o = tk_arena_alloc(p->a, end - start + 1);
	if (!o)
		return jnomem(p);
	size_t n = 0;
	size_t i = start;
	while (i < end) {
		unsigned char c = p->s[i];
		if (c < 0x20)
			return jerr(p, i, "control character in a string");
		if (c == '\\') {
			unsigned char e = p->s[i + 1];
			i += 2;
			switch (e) {
			case '"': o[n++] = '"'; break;
			case '\\': o[n++] = '\\'; break;
			case '/': o[n++] = '/'; break;
			case 'b': o[n++] = '\b'; break;
			case 'f': o[n++] = '\f'; break;
			case 'n': o[n++] = '\n'; break;
			case 'r': o[n++] = '\r'; break;
			case 't': o[n++] = '\t'; break;
			case 'u': {
				unsigned u;
				if (!read_hex4(p, i, &u))
					return jerr(p, i - 2, "bad \\u escape");
				i += 4;
				uint32_t cp = u;
				if (u >= 0xD800 && u <= 0xDBFF) {
					unsigned lo;
					if (i + 6 > end || p->s[i] != '\\' || p->s[i + 1] != 'u' ||
					    !read_hex4(p, i + 2, &lo) || lo < 0xDC00 || lo > 0xDFFF)
						return jerr(p, i - 6,
							    "lone surrogate in a \\u escape");
					i += 6;
					cp = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
				} else if (u >= 0xDC00 && u <= 0xDFFF) {
					return jerr(p, i - 6, "lone surrogate in a \\u escape");
				} else if (u == 0) {
					return jerr(p, i - 6, "\\u0000 in a string");
				}
				n += put_utf8(o + n, cp);
				break;
			}
			default: return jerr(p, i - 2, "bad escape in a string");
			}
			continue;
		}
		size_t k = c < 0x80 ? 1 : utf8_len(p->s + i, end - i);
		if (!k)
			return jerr(p, i, "invalid UTF-8 in a string");
		memcpy(o + n, p->s + i, k);
		n += k;
		i += k;
	}
	o[n] = 0;
	*out = o;
	*olen = n;
	p->pos = end + 1;
	return TK_OK;
}

static tk_status parse_number(jparser *p, ctf2_json *v)
{
	size_t st = p->pos, i = p->pos;
	bool neg = false, is_int = true;
	if (i < p->len && p->s[i] == '-') {
		neg = true;
		i++;
	}
	if (i >= p->len || p->s[i] < '0' || p->s[i] > '9')
		return jerr(p, st, "bad number");
	if (p->s[i] == '0' && i + 1 < p->len && p->s[i + 1] >= '0' && p->s[i + 1] <= '9')
		return jerr(p, st, "leading zero in a number");
	uint64_t u = 0;
	bool overflow = false;
	while (i < p->len && p->s[i] >= '0' && p->s[i] <= '9') {
		unsigned d = (unsigned)(p->s[i] - '0');
		if (u > (UINT64_MAX - d) / 10)
			overflow = true;
		else
			u = u * 10 + d;
		i++;
	}
	if (i < p->len && p->s[i] == '.') {
		is_int = false;
		i++;
		if (i >= p->len || p->s[i] < '0' || p->s[i] > '9')
			return jerr(p, st, "bad number fraction");
		while (i < p->len && p->s[i] >= '0' && p->s[i] <= '9')
			i++;
	}
	if (i < p->len && (p->s[i] == 'e' || p->s[i] == 'E')) {
		is_int = false;
		i++;
		if (i < p->len && (p->s[i] == '+' || p->s[i] == '-'))
			i++;
		if (i >= p->len || p->s[i] < '0' || p->s[i] > '9')
			return jerr(p, st, "bad number exponent");
		while (i < p->len && p->s[i] >= '0' && p->s[i] <= '9')
			i++;
	}
	char buf[64];
	size_t n = i - st;
	if (n < sizeof buf) {
		memcpy(buf, p->s + st, n);
		buf[n] = 0;
		v->d = strtod(buf, NULL);
	} else {
		v->d = neg ? -HUGE_VAL : HUGE_VAL; /* more than 63 characters */
	}
	if (neg && u > (uint64_t)1 << 63)
		overflow = true;
	v->kind = CTF2_JSON_NUMBER;
	v->is_int = is_int && !overflow;
	v->neg = neg && u != 0;
	v->u = u;
	p->pos = i;
	return TK_OK;
}

static int key_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Duplicate keys are refused: a fragment whose meaning depends on which
 * duplicate a reader keeps is not one we want to guess at. */
static tk_status check_dups(jparser *p, const ctf2_json *obj)
{
	if (obj->n < 2)
		return TK_OK;
	if (obj->n <= 16) {
		for (size_t i = 1; i < obj->n; i++)
			for (size_t j = 0; j < i; j++)
				if (!strcmp(obj->keys[i], obj->keys[j]))
					return jerr(p, obj->items[i]->offset - p->base,
						    "duplicate object key");
		return TK_OK;
	}
	const char **k = malloc(obj->n * sizeof *k);
	if (!k)
		return jnomem(p);
	memcpy(k, obj->keys, obj->n * sizeof *k);
	qsort(k, obj->n, sizeof *k, key_cmp);
	tk_status st = TK_OK;
	for (size_t i = 1; i < obj->n && st == TK_OK; i++)
		if (!strcmp(k[i], k[i - 1]))
			st = jerr(p, obj->offset - p->base, "duplicate object key");
	free(k);
	return st;
}

static bool lit(jparser *p, const char *w)
{
	size_t n = strlen(w);
	if (p->len - p->pos < n || memcmp(p->s + p->pos, w, n) != 0)
		return false;
	p->pos += n;
	return true;
}

static tk_status parse_value(jparser *p, unsigned depth, ctf2_json **out);

/* Moves the children pushed since `mark` into the container. */
static tk_status close_container(jparser *p, ctf2_json *v, size_t mark, bool keys)
{
	v->n = p->sn - mark;
	if (v->n) {
		v->items = tk_arena_alloc(p->a, v->n * sizeof *v->items);
		if (!v->items)
			return jnomem(p);
		memcpy(v->items, p->stack + mark, v->n * sizeof *v->items);
		if (keys) {
			v->keys = tk_arena_alloc(p->a, v->n * sizeof *v->keys);
			if (!v->keys)
				return jnomem(p);
			memcpy(v->keys, p->kstack + mark, v->n * sizeof *v->keys);
		}
	}
	p->sn = mark;
	return keys ? check_dups(p, v) : TK_OK;
}

static tk_status parse_container(jparser *p, ctf2_json *v, unsigned depth)
{
	bool obj = p->s[p->pos] == '{';
	char close = obj ? '}' : ']';
	size_t mark = p->sn;
	tk_status st;
	v->kind = obj ? CTF2_JSON_OBJECT : CTF2_JSON_ARRAY;
	p->pos++;
	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == close) {
		p->pos++;
		return TK_OK;
	}
	for (;;) {
		const char *key = NULL;
		skip_ws(p);
		if (obj) {
			size_t klen;
			if (p->pos >= p->len || p->s[p->pos] != '"')
				return jerr(p, p->pos, "expected a string key");
			if ((st = parse_string(p, &key, &klen)) != TK_OK)
				return st;
			skip_ws(p);
			if (p->pos >= p->len || p->s[p->pos] != ':')
				return jerr(p, p->pos, "expected ':'");
			p->pos++;
		}
		ctf2_json *child;
		if ((st = parse_value(p, depth + 1, &child)) != TK_OK)
			return st;
		if (!push(p, child, key))
			return jnomem(p);
		skip_ws(p);
		if (p->pos >= p->len)
			return jerr(p, p->pos, obj ? "unterminated object" : "unterminated array");
		if (p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->s[p->pos] == close) {
			p->pos++;
			break;
		}
		return jerr(p, p->pos, obj ? "expected ',' or '}'" : "expected ',' or ']'");
	}
	return close_container(p, v, mark, obj);
}

static tk_status parse_value(jparser *p, unsigned depth, ctf2_json **out)
{
	skip_ws(p);
	if (depth > CTF2_JSON_MAX_DEPTH)
		return tk_error_set(p->err, TK_ERR_LIMIT, p->base + p->pos,
				    "metadata: JSON nested deeper than %d levels",
				    CTF2_JSON_MAX_DEPTH);
	if (p->pos >= p->len)
		return jerr(p, p->pos, "expected a value");
	ctf2_json *v = tk_arena_calloc(p->a, 1, sizeof *v);
	if (!v)
		return jnomem(p);
	v->offset = p->base + p->pos;
	*out = v;
	unsigned char c = p->s[p->pos];
	switch (c) {
	case '{':
	case '[': return parse_container(p, v, depth);
	case '"': v->kind = CTF2_JSON_STRING; return parse_string(p, &v->s, &v->len);
	case 't':
	case 'f':
	case 'n':
		if (lit(p, "true")) {
			v->kind = CTF2_JSON_BOOL;
			v->b = true;
		} else if (lit(p, "false")) {
			v->kind = CTF2_JSON_BOOL;
		} else if (lit(p, "null")) {
			v->kind = CTF2_JSON_NULL;
		} else {
			return jerr(p, p->pos, "unknown literal");
		}
		return TK_OK;
	default:
		if (c == '-' || (c >= '0' && c <= '9'))
			return parse_number(p, v);
		return jerr(p, p->pos, "unexpected character");
	}
}

tk_status ctf2_json_parse(tk_arena *a, const char *text, size_t len, uint64_t base, ctf2_json **out,
			  tk_error *err)
{
	jparser p;
	memset(&p, 0, sizeof p);
	p.a = a;
	p.s = (const unsigned char *)text;
	p.len = len;
	p.base = base;
	p.err = err;
	*out = NULL;
	tk_status st = parse_value(&p, 0, out);
	if (st == TK_OK) {
		skip_ws(&p);
		if (p.pos != p.len)
			st = jerr(&p, p.pos, "text after the value");
	}
	free(p.stack);
	free(p.kstack);
	if (st != TK_OK)
		*out = NULL;
	return st;
}

const ctf2_json *ctf2_json_get(const ctf2_json *obj, const char *key)
{
	if (!obj || obj->kind != CTF2_JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], key))
			return obj->items[i];
	return NULL;
}
