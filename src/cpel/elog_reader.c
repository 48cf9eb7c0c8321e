/* VPP elog reader; see elog_reader.h. */
#include "cpel/elog_reader.h"

#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"

#define ELOG_MAGIC "elog v0"

bool tk_elog_detect(const uint8_t *head, size_t n)
{
	return n >= 11 && tk_load_be32(head) == 7 && memcmp(head + 4, ELOG_MAGIC, 7) == 0;
}

/* A cursor over the serialized bytes; every read checks what remains. */
typedef struct cur {
	const uint8_t *p;
	uint64_t off, size;
	tk_error *err;
} cur;

static tk_status need(cur *c, uint64_t n, const char *what)
{
	if (tk_range_ok(c->off, n, c->size))
		return TK_OK;
	return tk_error_set(c->err, TK_ERR_TRUNCATED, c->off, "%s: needs %llu bytes, %llu left",
			    what, (unsigned long long)n, (unsigned long long)(c->size - c->off));
}

static tk_status get_u8(cur *c, uint8_t *v, const char *what)
{
	tk_status st = need(c, 1, what);
	if (st == TK_OK)
		*v = c->p[c->off++];
	return st;
}

static tk_status get_u16(cur *c, uint16_t *v, const char *what)
{
	tk_status st = need(c, 2, what);
	if (st == TK_OK) {
		*v = tk_load_be16(c->p + c->off);
		c->off += 2;
	}
	return st;
}

static tk_status get_u32(cur *c, uint32_t *v, const char *what)
{
	tk_status st = need(c, 4, what);
	if (st == TK_OK) {
		*v = tk_load_be32(c->p + c->off);
		c->off += 4;
	}
	return st;
}

/* serialize_64: low word first, each word big-endian. */
static tk_status get_u64(cur *c, uint64_t *v, const char *what)
{
	uint32_t lo, hi;
	tk_status st = get_u32(c, &lo, what);
	if (st == TK_OK && (st = get_u32(c, &hi, what)) == TK_OK)
		*v = (uint64_t)hi << 32 | lo;
	return st;
}

static tk_status get_f64(cur *c, double *v, const char *what)
{
	uint64_t bits;
	tk_status st = get_u64(c, &bits, what);
	if (st == TK_OK)
		memcpy(v, &bits, 8);
	return st;
}

/* unserialize_likely_small_unsigned_integer (vppinfra/serialize.h). */
static tk_status get_small(cur *c, uint64_t *v, const char *what)
{
	uint8_t y;
	tk_status st = get_u8(c, &y, what);
	if (st != TK_OK)
		return st;
	if (y & 1) {
		*v = y / 2;
		return TK_OK;
	}
	uint64_t r = 1 << 7;
	if (y & 2) {
		uint8_t b;
		if ((st = get_u8(c, &b, what)) != TK_OK)
			return st;
		*v = r + y / 4 + ((uint64_t)b << 6);
		return TK_OK;
	}
	r += 1 << 14;
	if (y & 4) {
		if ((st = need(c, 3, what)) != TK_OK)
			return st;
		const uint8_t *p = c->p + c->off;
		*v = r + y / 8 + ((uint64_t)p[0] << 5) + ((uint64_t)p[1] << 13) +
		     ((uint64_t)p[2] << 21);
		c->off += 3;
		return TK_OK;
	}
	if ((st = need(c, 8, what)) != TK_OK)
		return st;
	*v = tk_load_le64(c->p + c->off);
	c->off += 8;
	return TK_OK;
}

/* A cstring, returned as a NUL-terminated view (ptr into the file) plus
 * its length; `copy` also copies it into the arena. */
static tk_status get_cstring(cur *c, tk_arena *a, tk_elog_str *out, const char *what)
{
	uint64_t at = c->off;
	uint64_t len;
	tk_status st = get_small(c, &len, what);
	if (st != TK_OK)
		return st;
	if (!tk_range_ok(c->off, len, c->size))
		return tk_error_set(c->err, TK_ERR_TRUNCATED, at,
				    "%s: string length %llu runs past the end (%llu bytes left)",
				    what, (unsigned long long)len,
				    (unsigned long long)(c->size - c->off));
	char *s = tk_arena_strndup(a, (const char *)c->p + c->off, (size_t)len);
	if (!s)
		return tk_error_set(c->err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	out->s = s;
	out->len = strnlen(s, (size_t)len); /* the tools stop at a NUL */
	c->off += len;
	return TK_OK;
}

/* parse_2digit_decimal + the letter: the format_args of one type. */
static tk_status parse_args(cur *c, tk_elog_type *t, uint32_t index, uint64_t at)
{
	const char *a = t->args.s;
	t->n_args = 0;
	while (*a) {
		char k = *a++;
		unsigned n = 0, nd = 0;
		while (nd < 2 && *a >= '0' && *a <= '9') {
			n = n * 10 + (unsigned)(*a++ - '0');
			nd++;
		}
		bool ok;
		switch (k) {
		case 'i':
		case 't':
		case 'T': ok = nd && (n == 1 || n == 2 || n == 4 || n == 8); break;
		case 'f': ok = nd && (n == 4 || n == 8); break;
		case 's': ok = true; break;
		default: ok = false;
		}
		if (!ok)
			return tk_error_set(
			    c->err, TK_ERR_FORMAT, at,
			    "event type %u: bad argument spec '%c%.*s' in format_args \"%s\"",
			    index, k, (int)nd, a - nd, t->args.s);
		if (t->n_args >= TK_ELOG_MAX_ARGS)
			return tk_error_set(c->err, TK_ERR_LIMIT, at,
					    "event type %u: more than %d arguments", index,
					    TK_ELOG_MAX_ARGS);
		t->arg_kind[t->n_args] = k;
		t->arg_bytes[t->n_args] = (uint8_t)n;
		t->n_args++;
	}
	return TK_OK;
}

static tk_status read_types(cur *c, tk_elog_file *f)
{
	uint64_t at = c->off;
	uint32_t n;
	tk_status st = get_u32(c, &n, "event type vector");
	if (st != TK_OK)
		return st;
	/* each type takes at least 10 bytes: bound the allocation first */
	if ((uint64_t)n * 10 > c->size - c->off)
		return tk_error_set(c->err, TK_ERR_FORMAT, at,
				    "event type vector: %u types cannot fit in the %llu bytes left",
				    n, (unsigned long long)(c->size - c->off));
	f->types = tk_arena_calloc(&f->arena, n ? n : 1, sizeof *f->types);
	if (!f->types)
		return tk_error_set(c->err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	for (uint32_t i = 0; i < n; i++) {
		tk_elog_type *t = &f->types[i];
		uint64_t tat = c->off;
		if ((st = get_cstring(c, &f->arena, &t->format, "event type format")) != TK_OK ||
		    (st = get_cstring(c, &f->arena, &t->args, "event type format_args")) != TK_OK ||
		    (st = get_u32(c, &t->index_plus_one, "event type index")) != TK_OK ||
		    (st = get_u32(c, &t->n_enum, "event type enum count")) != TK_OK)
			return st;
		if (t->n_enum > c->size - c->off)
			return tk_error_set(
			    c->err, TK_ERR_FORMAT, c->off - 4,
			    "event type %u: %u enum strings cannot fit in the %llu bytes left", i,
			    t->n_enum, (unsigned long long)(c->size - c->off));
		t->enums = tk_arena_calloc(&f->arena, t->n_enum ? t->n_enum : 1, sizeof *t->enums);
		if (!t->enums)
			return tk_error_set(c->err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		for (uint32_t k = 0; k < t->n_enum; k++)
			if ((st = get_cstring(c, &f->arena, &t->enums[k], "enum string")) != TK_OK)
				return st;
		if ((st = parse_args(c, t, i, tat)) != TK_OK)
			return st;
	}
	f->n_types = n;
	return TK_OK;
}

static tk_status read_tracks(cur *c, tk_elog_file *f)
{
	uint64_t at = c->off;
	uint32_t n;
	tk_status st = get_u32(c, &n, "track vector");
	if (st != TK_OK)
		return st;
	if (n > c->size - c->off)
		return tk_error_set(c->err, TK_ERR_FORMAT, at,
				    "track vector: %u tracks cannot fit in the %llu bytes left", n,
				    (unsigned long long)(c->size - c->off));
	f->tracks = tk_arena_calloc(&f->arena, n ? n : 1, sizeof *f->tracks);
	if (!f->tracks)
		return tk_error_set(c->err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	for (uint32_t i = 0; i < n; i++)
		if ((st = get_cstring(c, &f->arena, &f->tracks[i], "track name")) != TK_OK)
			return st;
	f->n_tracks = n;
	return TK_OK;
}

/* Skips one event's arguments, checking each against what remains. */
static tk_status skip_args(cur *c, const tk_elog_type *t)
{
	tk_status st = TK_OK;
	for (unsigned i = 0; i < t->n_args && st == TK_OK; i++) {
		char k = t->arg_kind[i];
		if (k == 's') {
			uint64_t len;
			uint64_t at = c->off;
			if ((st = get_small(c, &len, "string argument")) != TK_OK)
				return st;
			if (!tk_range_ok(c->off, len, c->size))
				return tk_error_set(c->err, TK_ERR_TRUNCATED, at,
						    "string argument: length %llu runs past the "
						    "end (%llu bytes left)",
						    (unsigned long long)len,
						    (unsigned long long)(c->size - c->off));
			c->off += len;
		} else {
			st = need(c, t->arg_bytes[i], "event argument");
			c->off += st == TK_OK ? t->arg_bytes[i] : 0;
		}
	}
	return st;
}

static tk_status load(tk_elog_file *f, tk_error *err)
{
	cur c = {.p = f->data, .off = 0, .size = f->size, .err = err};
	uint32_t mlen;
	tk_status st = get_u32(&c, &mlen, "magic");
	if (st != TK_OK)
		return st;
	if (mlen != 7 || need(&c, 7, "magic") != TK_OK || memcmp(f->data + 4, ELOG_MAGIC, 7) != 0)
		return tk_error_set(err, TK_ERR_FORMAT, 0,
				    "magic: not a VPP event log (expected \"elog v0\")");
	c.off += 7;
	if ((st = get_u32(&c, &f->ring_size, "ring size")) != TK_OK ||
	    (st = get_u64(&c, &f->serialize_os_nsec, "serialize time")) != TK_OK ||
	    (st = get_u64(&c, &f->serialize_cpu, "serialize time")) != TK_OK ||
	    (st = get_u64(&c, &f->init_os_nsec, "init time")) != TK_OK ||
	    (st = get_u64(&c, &f->init_cpu, "init time")) != TK_OK ||
	    (st = read_types(&c, f)) != TK_OK || (st = read_tracks(&c, f)) != TK_OK)
		return st;
	uint64_t at = c.off;
	if ((st = get_u32(&c, &f->heap_len, "string heap")) != TK_OK)
		return st;
	if (!tk_range_ok(c.off, f->heap_len, c.size))
		return tk_error_set(err, TK_ERR_TRUNCATED, at,
				    "string heap: length %u runs past the end (%llu bytes left)",
				    f->heap_len, (unsigned long long)(c.size - c.off));
	f->heap = (const char *)f->data + c.off;
	c.off += f->heap_len;
	at = c.off;
	uint32_t n;
	if ((st = get_u32(&c, &n, "event count")) != TK_OK)
		return st;
	if ((uint64_t)n * 12 > c.size - c.off)
		return tk_error_set(
		    err, TK_ERR_FORMAT, at,
		    "event count %u: that many events cannot fit in the %llu bytes left", n,
		    (unsigned long long)(c.size - c.off));
	f->events = malloc((n ? n : 1) * sizeof *f->events);
	if (!f->events)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	for (uint32_t i = 0; i < n; i++) {
		tk_elog_event *e = &f->events[i];
		e->offset = c.off;
		if ((st = get_u16(&c, &e->type, "event")) != TK_OK ||
		    (st = get_u16(&c, &e->track, "event")) != TK_OK ||
		    (st = get_f64(&c, &e->time, "event time")) != TK_OK)
			return st;
		if (e->type >= f->n_types)
			return tk_error_set(err, TK_ERR_FORMAT, e->offset,
					    "event %u: type %u is not defined (%u types)", i,
					    e->type, f->n_types);
		if (e->track >= f->n_tracks)
			return tk_error_set(err, TK_ERR_FORMAT, e->offset + 2,
					    "event %u: track %u is not defined (%u tracks)", i,
					    e->track, f->n_tracks);
		e->args_offset = c.off;
		if ((st = skip_args(&c, &f->types[e->type])) != TK_OK)
			return st;
	}
	f->n_events = n;
	return TK_OK;
}

static tk_status open_common(tk_elog_file *f, const char *name, tk_elog_file **out, tk_error *err)
{
	tk_status st = load(f, err);
	if (st != TK_OK) {
		if (err && name)
			tk_error_set_file(err, name);
		tk_elog_close(f);
		return st;
	}
	*out = f;
	return TK_OK;
}

tk_status tk_elog_open(const char *path, tk_elog_file **out, tk_error *err)
{
	*out = NULL;
	tk_input *in;
	tk_status st = tk_input_open(path, &in, err);
	if (st != TK_OK)
		return st;
	if (tk_input_is_stream(in)) {
		tk_input_close(in);
		return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
				    "elog input must be a regular file");
	}
	tk_elog_file *f = calloc(1, sizeof *f);
	if (!f) {
		tk_input_close(in);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	tk_arena_init(&f->arena, 16384);
	f->input = in;
	f->data = tk_input_data(in);
	f->size = tk_input_size(in);
	return open_common(f, path, out, err);
}

tk_status tk_elog_open_memory(const void *data, size_t size, const char *name, tk_elog_file **out,
			      tk_error *err)
{
	*out = NULL;
	tk_elog_file *f = calloc(1, sizeof *f);
	if (!f)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	tk_arena_init(&f->arena, 16384);
	f->data = data;
	f->size = size;
	return open_common(f, name, out, err);
}

tk_status tk_elog_open_owned(void *data, size_t size, const char *name, tk_elog_file **out,
			     tk_error *err)
{
	*out = NULL;
	tk_elog_file *f = calloc(1, sizeof *f);
	if (!f) {
		free(data);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	tk_arena_init(&f->arena, 16384);
	f->data = data;
	f->size = size;
	f->owned = data;
	return open_common(f, name, out, err);
}

void tk_elog_close(tk_elog_file *f)
{
	if (!f)
		return;
	free(f->events);
	free(f->owned);
	tk_arena_free(&f->arena);
	tk_input_close(f->input);
	free(f);
}

/* The heap string at off, NUL-terminated inside the heap or cut at its end. */
static void heap_string(const tk_elog_file *f, uint64_t off, tk_fmt_arg *a)
{
	a->kind = TK_FMT_ARG_STRING;
	a->u = off;
	if (off >= f->heap_len) {
		a->s = NULL;
		a->len = 0;
		return;
	}
	a->s = f->heap + off;
	a->len = strnlen(a->s, f->heap_len - off);
}

size_t tk_elog_event_args(const tk_elog_file *f, const tk_elog_event *e, tk_fmt_arg *args)
{
	const tk_elog_type *t = &f->types[e->type];
	const uint8_t *p = f->data + e->args_offset; /* validated at load */
	for (unsigned i = 0; i < t->n_args; i++) {
		tk_fmt_arg *a = &args[i];
		char k = t->arg_kind[i];
		unsigned nb = t->arg_bytes[i];
		memset(a, 0, sizeof *a);
		if (k == 's') {
			cur c = {.p = f->data,
				 .off = (uint64_t)(p - f->data),
				 .size = f->size,
				 .err = NULL};
			uint64_t len = 0;
			get_small(&c, &len, "");
			const char *s = (const char *)f->data + c.off;
			size_t n = (size_t)len;
			if (nb && nb < n)
				n = nb; /* sN keeps at most N bytes */
			a->kind = TK_FMT_ARG_STRING;
			a->s = s;
			a->len = strnlen(s, n);
			p = f->data + c.off + len;
			continue;
		}
		uint64_t v = 0;
		if (k == 'f') {
			if (nb == 4) {
				uint32_t bits = tk_load_be32(p);
				float x;
				memcpy(&x, &bits, 4);
				a->f = x;
			} else {
				uint64_t bits =
				    (uint64_t)tk_load_be32(p + 4) << 32 | tk_load_be32(p);
				memcpy(&a->f, &bits, 8);
			}
			a->kind = TK_FMT_ARG_DOUBLE;
			p += nb;
			continue;
		}
		if (nb == 1)
			v = p[0];
		else if (nb == 2)
			v = tk_load_be16(p);
		else if (nb == 4)
			v = tk_load_be32(p);
		else
			v = (uint64_t)tk_load_be32(p + 4) << 32 | tk_load_be32(p);
		p += nb;
		if (k == 't') {
			a->kind = TK_FMT_ARG_STRING;
			a->u = v;
			if (v < t->n_enum) {
				a->s = t->enums[v].s;
				a->len = t->enums[v].len;
			}
		} else if (k == 'T') {
			heap_string(f, v, a);
		} else {
			a->kind = TK_FMT_ARG_INT;
			a->u = v;
		}
	}
	return t->n_args;
}

/* format_elog_event: the format is cut into literal text and one
 * directive at a time (fixed_format); each directive is formatted with the
 * next argument; formatting stops when the arguments run out. */
void tk_elog_event_text(tk_writer *w, const tk_elog_file *f, const tk_elog_event *e)
{
	tk_fmt_arg args[TK_ELOG_MAX_ARGS];
	size_t n_args = tk_elog_event_args(f, e, args);
	const char *fmt = f->types[e->type].format.s;
	size_t next = 0;
	for (;;) {
		const char *p = fmt;
		while (*p && !(p[0] == '%' && p[1] != '%'))
			p++;
		tk_put_mem(w, fmt, (size_t)(p - fmt));
		if (*p != '%' || next >= n_args)
			break; /* no directive left, or no argument for it */
		const char *d = p + 1;
		d += *d == '+' || *d == '-' || *d == '=';
		while ((*d >= '0' && *d <= '9') || *d == '.')
			d++;
		d += *d == 'w' || *d == 'l' || *d == 'L';
		d += *d != 0;
		if (d - p > 1)
			tk_safe_format(w, TK_FMT_VPPINFRA, p, (size_t)(d - p), &args[next], 1);
		next++;
		fmt = d;
	}
}
