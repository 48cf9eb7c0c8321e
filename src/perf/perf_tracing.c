/* HEADER_TRACING_DATA: the tracepoint formats perf copies from tracefs
 * (perf's util/trace-event-read.c is the reference):
 *
 *   "\x17\x08\x44tracing" "0.6\0"  u8 big_endian  u8 sizeof(long)  u32 page_size
 *   "header_page\0"  u64 size + text     "header_event\0"  u64 size + text
 *   u32 n x (u64 size + ftrace format)   (system "ftrace")
 *   u32 n_systems x (system\0, u32 n x (u64 size + format))
 *   u32 size + kallsyms   u32 size + printk formats   [0.6+: u64 size + saved_cmdlines]
 *
 * Integers follow the big_endian byte. Every size is checked against what
 * remains before it is used; counts are checked against the bytes they need
 * before anything is allocated. The result copies what it keeps, so the
 * input may go away after parsing. */
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "perf/perf_tracing_internal.h"

static const uint8_t tracing_magic[10] = {0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'};

typedef struct cursor {
	const uint8_t *p;
	size_t size, pos;
	uint64_t base; /* file offset of p[0] */
	bool swap;
	tk_error *err;
} cursor;

static uint64_t cur_off(const cursor *c)
{
	return c->base + c->pos;
}

static tk_status need(cursor *c, uint64_t n, const char *what)
{
	if (tk_range_ok(c->pos, n, c->size))
		return TK_OK;
	return tk_error_set(c->err, TK_ERR_TRUNCATED, cur_off(c),
			    "tracing data: %s needs %llu bytes, %zu remain", what,
			    (unsigned long long)n, c->size - c->pos);
}

static tk_status get_u32(cursor *c, const char *what, uint32_t *out)
{
	tk_status st = need(c, 4, what);
	if (st == TK_OK) {
		*out = tk_load_u32(c->p + c->pos, c->swap);
		c->pos += 4;
	}
	return st;
}

static tk_status get_u64(cursor *c, const char *what, uint64_t *out)
{
	tk_status st = need(c, 8, what);
	if (st == TK_OK) {
		*out = tk_load_u64(c->p + c->pos, c->swap);
		c->pos += 8;
	}
	return st;
}

/* A NUL-terminated string inside the buffer; *len excludes the NUL. */
static tk_status get_cstr(cursor *c, const char *what, const char **s, size_t *len)
{
	const uint8_t *start = c->p + c->pos;
	const uint8_t *nul = memchr(start, 0, c->size - c->pos);
	if (!nul)
		return tk_error_set(c->err, TK_ERR_TRUNCATED, cur_off(c),
				    "tracing data: %s is not NUL-terminated", what);
	*s = (const char *)start;
	*len = (size_t)(nul - start);
	c->pos += *len + 1;
	return TK_OK;
}

/* A blob of `size` bytes, copied into the arena with a NUL appended. */
static tk_status get_blob(cursor *c, tk_arena *a, uint64_t size, const char *what, const char **out,
			  size_t *out_len)
{
	tk_status st = need(c, size, what);
	if (st != TK_OK)
		return st;
	char *s = tk_arena_strndup(a, (const char *)c->p + c->pos, (size_t)size);
	if (!s)
		return tk_error_set(c->err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	*out = s;
	*out_len = (size_t)size;
	c->pos += (size_t)size;
	return TK_OK;
}

/* "header_page\0" u64 size + text (and the same for header_event). */
static tk_status get_header_file(cursor *c, tk_arena *a, const char *name, const char **out,
				 size_t *out_len)
{
	size_t n = strlen(name) + 1;
	tk_status st = need(c, n, name);
	if (st != TK_OK)
		return st;
	if (memcmp(c->p + c->pos, name, n) != 0)
		return tk_error_set(c->err, TK_ERR_FORMAT, cur_off(c),
				    "tracing data: expected \"%s\"", name);
	c->pos += n;
	uint64_t size;
	if ((st = get_u64(c, name, &size)) != TK_OK)
		return st;
	return get_blob(c, a, size, name, out, out_len);
}

static tk_status add_format(tk_perf_tracing *tr, cursor *c, const char *system, uint64_t size)
{
	tk_status st = need(c, size, "event format");
	if (st != TK_OK)
		return st;
	if (tr->n_formats == tr->cap_formats) {
		size_t cap = tr->cap_formats ? tr->cap_formats * 2 : 64;
		tp_format_impl **grown = realloc(tr->formats, cap * sizeof *grown);
		if (!grown)
			return tk_error_set(c->err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		tr->formats = grown;
		tr->cap_formats = cap;
	}
	tp_format_impl *f = tk_arena_alloc(&tr->arena, sizeof *f);
	if (!f)
		return tk_error_set(c->err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	st = tp_format_parse(&tr->arena, system, c->p + c->pos, (size_t)size, tr->long_size,
			     cur_off(c), f, c->err);
	if (st != TK_OK)
		return st;
	f->owner = tr;
	c->pos += (size_t)size;
	/* The first format with an id wins, like libtraceevent's lookup. */
	if (!tk_hashmap_get(&tr->by_id, f->pub.id) &&
	    !tk_hashmap_put(&tr->by_id, f->pub.id, tr->n_formats))
		return tk_error_set(c->err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	tr->formats[tr->n_formats++] = f;
	return TK_OK;
}

/* u32 count x (u64 size + format text) */
static tk_status get_formats(tk_perf_tracing *tr, cursor *c, const char *system)
{
	uint32_t n;
	tk_status st = get_u32(c, "event format count", &n);
	if (st != TK_OK)
		return st;
	if ((uint64_t)n * 8 > c->size - c->pos)
		return tk_error_set(c->err, TK_ERR_TRUNCATED, cur_off(c) - 4,
				    "tracing data: %u %s formats cannot fit in %zu bytes", n,
				    system, c->size - c->pos);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t size;
		if ((st = get_u64(c, "event format size", &size)) != TK_OK ||
		    (st = add_format(tr, c, system, size)) != TK_OK)
			return st;
	}
	return TK_OK;
}

static tk_status get_systems(tk_perf_tracing *tr, cursor *c)
{
	uint32_t n;
	tk_status st = get_u32(c, "event system count", &n);
	if (st != TK_OK)
		return st;
	/* each system needs at least its name's NUL and a count */
	if ((uint64_t)n * 5 > c->size - c->pos)
		return tk_error_set(c->err, TK_ERR_TRUNCATED, cur_off(c) - 4,
				    "tracing data: %u event systems cannot fit in %zu bytes", n,
				    c->size - c->pos);
	for (uint32_t i = 0; i < n; i++) {
		const char *name;
		size_t len;
		if ((st = get_cstr(c, "event system name", &name, &len)) != TK_OK)
			return st;
		const char *sys = tk_arena_strndup(&tr->arena, name, len);
		if (!sys)
			return tk_error_set(c->err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		if ((st = get_formats(tr, c, sys)) != TK_OK)
			return st;
	}
	return TK_OK;
}

/* Versions are "0.5", "0.6", ...: saved_cmdlines exist from 0.6 on. */
static bool version_has_cmdlines(const char *v)
{
	unsigned major = 0, minor = 0;
	const char *p = v;
	while (*p >= '0' && *p <= '9' && major < 1000)
		major = major * 10 + (unsigned)(*p++ - '0');
	if (*p == '.')
		p++;
	if (*p >= '0' && *p <= '9')
		minor = (unsigned)(*p - '0');
	return major > 0 || minor >= 6;
}

/* Trailing sections. perf writes them all, but files cut right after the
 * event formats (old perf, hand-made data) are read as having none: when
 * not even the size word remains, the section is empty. */
static tk_status get_trailer(tk_perf_tracing *tr, cursor *c)
{
	tk_status st;
	uint32_t size32;
	if (c->pos == c->size)
		return TK_OK;
	if ((st = get_u32(c, "kallsyms size", &size32)) != TK_OK ||
	    (st = get_blob(c, &tr->arena, size32, "kallsyms", &tr->kallsyms, &tr->kallsyms_len)) !=
		TK_OK)
		return st;
	if (c->pos == c->size)
		return TK_OK;
	if ((st = get_u32(c, "printk formats size", &size32)) != TK_OK ||
	    (st = get_blob(c, &tr->arena, size32, "printk formats", &tr->printk,
			   &tr->printk_len)) != TK_OK)
		return st;
	if (!version_has_cmdlines(tr->version) || c->size - c->pos < 8)
		return TK_OK; /* perf pads the section: a short tail is padding */
	uint64_t size64;
	if ((st = get_u64(c, "saved cmdlines size", &size64)) != TK_OK)
		return st;
	return get_blob(c, &tr->arena, size64, "saved cmdlines", &tr->cmdlines, &tr->cmdlines_len);
}

static tk_status parse_all(tk_perf_tracing *tr, cursor *c)
{
	tk_status st = need(c, sizeof tracing_magic, "magic");
	if (st != TK_OK)
		return st;
	if (memcmp(c->p, tracing_magic, sizeof tracing_magic) != 0)
		return tk_error_set(c->err, TK_ERR_FORMAT, cur_off(c),
				    "tracing data: bad magic (want \\x17\\x08Dtracing)");
	c->pos += sizeof tracing_magic;
	const char *version;
	size_t vlen;
	if ((st = get_cstr(c, "version", &version, &vlen)) != TK_OK)
		return st;
	if (vlen == 0 || vlen > 16 || version[0] < '0' || version[0] > '9')
		return tk_error_set(c->err, TK_ERR_FORMAT, cur_off(c) - vlen - 1,
				    "tracing data: bad version string");
	if (!(tr->version = tk_arena_strndup(&tr->arena, version, vlen)))
		return tk_error_set(c->err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	if ((st = need(c, 2, "byte order and long size")) != TK_OK)
		return st;
	uint8_t be = c->p[c->pos], long_size = c->p[c->pos + 1];
	if (be > 1 || (long_size != 4 && long_size != 8))
		return tk_error_set(c->err, TK_ERR_FORMAT, cur_off(c),
				    "tracing data: bad byte order %u or long size %u", be,
				    long_size);
	c->pos += 2;
	tr->big_endian = be != 0;
	tr->swap = tr->big_endian == tk_host_is_le();
	c->swap = tr->swap;
	tr->long_size = long_size;
	if ((st = get_u32(c, "page size", &tr->page_size)) != TK_OK ||
	    (st = get_header_file(c, &tr->arena, "header_page", &tr->header_page,
				  &tr->header_page_len)) != TK_OK ||
	    (st = get_header_file(c, &tr->arena, "header_event", &tr->header_event,
				  &tr->header_event_len)) != TK_OK ||
	    (st = get_formats(tr, c, "ftrace")) != TK_OK || (st = get_systems(tr, c)) != TK_OK)
		return st;
	return get_trailer(tr, c);
}

tk_status tk_perf_tracing_parse(const uint8_t *data, size_t size, uint64_t base_offset,
				tk_perf_tracing **out, tk_error *err)
{
	*out = NULL;
	if (!data && size)
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET, "tracing data: NULL buffer");
	tk_perf_tracing *tr = calloc(1, sizeof *tr);
	if (!tr)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	tk_arena_init(&tr->arena, 64 * 1024);
	tk_hashmap_init(&tr->by_id);
	tr->kallsyms = tr->printk = tr->cmdlines = "";
	tr->header_page = tr->header_event = "";
	cursor c = {data, size, 0, base_offset, false, err};
	tk_status st = parse_all(tr, &c);
	if (st != TK_OK) {
		tk_perf_tracing_free(tr);
		return st;
	}
	*out = tr;
	return TK_OK;
}

void tk_perf_tracing_free(tk_perf_tracing *tr)
{
	if (!tr)
		return;
	tp_render_free(tr);
	free(tr->formats);
	tk_hashmap_free(&tr->by_id);
	tk_arena_free(&tr->arena);
	free(tr);
}

const tk_perf_tp_format *tk_perf_tracing_format(const tk_perf_tracing *tr, uint64_t id)
{
	if (!tr)
		return NULL;
	const uint64_t *idx = tk_hashmap_get(&tr->by_id, id);
	return idx ? &tr->formats[*idx]->pub : NULL;
}

size_t tk_perf_tracing_count(const tk_perf_tracing *tr)
{
	return tr ? tr->n_formats : 0;
}

const tk_perf_tp_format *tk_perf_tracing_format_at(const tk_perf_tracing *tr, size_t i)
{
	return tr && i < tr->n_formats ? &tr->formats[i]->pub : NULL;
}

bool tk_perf_tracing_big_endian(const tk_perf_tracing *tr)
{
	return tr && tr->big_endian;
}

uint32_t tk_perf_tracing_long_size(const tk_perf_tracing *tr)
{
	return tr ? tr->long_size : 0;
}

const char *tk_perf_tracing_kallsyms(const tk_perf_tracing *tr, size_t *len)
{
	if (len)
		*len = tr ? tr->kallsyms_len : 0;
	return tr ? tr->kallsyms : "";
}

const char *tk_perf_tracing_printk(const tk_perf_tracing *tr, size_t *len)
{
	if (len)
		*len = tr ? tr->printk_len : 0;
	return tr ? tr->printk : "";
}

const char *tk_perf_tracing_cmdlines(const tk_perf_tracing *tr, size_t *len)
{
	if (len)
		*len = tr ? tr->cmdlines_len : 0;
	return tr ? tr->cmdlines : "";
}
