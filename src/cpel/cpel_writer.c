/* CPEL writer; see cpel_writer.h. */
#include "cpel/cpel_writer.h"

#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "base/hashmap.h"
#include "base/writer.h"
#include "cpel/cpel_reader.h"

typedef struct def3 {
	uint32_t a, b, c;
} def3;

typedef struct rec {
	uint64_t ticks;
	uint32_t track, code, datum;
} rec;

struct tk_cpel_writer {
	char *strtab;
	size_t str_len, str_cap;
	tk_hashmap str_by_hash; /* FNV-1a (probed on collision) -> offset */
	def3 *evdefs;
	size_t n_evdefs, evdef_cap;
	def3 *trdefs;
	size_t n_trdefs, trdef_cap;
	rec *events;
	size_t n_events, ev_cap;
};

static bool grow(void **p, size_t n, size_t elem, size_t *cap)
{
	if (n < *cap)
		return true;
	size_t nc = *cap ? *cap * 2 : 64;
	void *np = realloc(*p, nc * elem);
	if (!np)
		return false;
	*p = np;
	*cap = nc;
	return true;
}

tk_cpel_writer *tk_cpel_writer_new(void)
{
	tk_cpel_writer *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	tk_hashmap_init(&w->str_by_hash);
	uint32_t off;
	if (!tk_cpel_writer_string(w, TK_CPEL_WRITER_TABLE, strlen(TK_CPEL_WRITER_TABLE), &off)) {
		tk_cpel_writer_free(w);
		return NULL;
	}
	return w;
}

void tk_cpel_writer_free(tk_cpel_writer *w)
{
	if (!w)
		return;
	free(w->strtab);
	tk_hashmap_free(&w->str_by_hash);
	free(w->evdefs);
	free(w->trdefs);
	free(w->events);
	free(w);
}

static uint64_t fnv1a(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 0x100000001b3ULL;
	return h;
}

bool tk_cpel_writer_string(tk_cpel_writer *w, const char *s, size_t len, uint32_t *off)
{
	const char *nul = memchr(s, 0, len);
	if (nul)
		len = (size_t)(nul - s); /* C strings end at their first NUL */
	uint64_t h = fnv1a(s, len);
	for (;; h++) {
		const uint64_t *v = tk_hashmap_get(&w->str_by_hash, h);
		if (!v)
			break;
		if (strlen(w->strtab + *v) == len && memcmp(w->strtab + *v, s, len) == 0) {
			*off = (uint32_t)*v;
			return true;
		}
	}
	if (w->str_len + len + 1 > UINT32_MAX - 8)
		return false;
	while (w->str_cap < w->str_len + len + 1) {
		size_t nc = w->str_cap ? w->str_cap * 2 : 4096;
		char *np = realloc(w->strtab, nc);
		if (!np)
			return false;
		w->strtab = np;
		w->str_cap = nc;
	}
	memcpy(w->strtab + w->str_len, s, len);
	w->strtab[w->str_len + len] = 0;
	*off = (uint32_t)w->str_len;
	if (!tk_hashmap_put(&w->str_by_hash, h, w->str_len))
		return false;
	w->str_len += len + 1;
	return true;
}

const char *tk_cpel_writer_strtab(const tk_cpel_writer *w, size_t *size)
{
	*size = w->str_len;
	return w->strtab;
}

bool tk_cpel_writer_event_def(tk_cpel_writer *w, uint32_t code, uint32_t name_off,
			      uint32_t datum_off)
{
	if (!grow((void **)&w->evdefs, w->n_evdefs, sizeof *w->evdefs, &w->evdef_cap))
		return false;
	w->evdefs[w->n_evdefs++] = (def3){code, name_off, datum_off};
	return true;
}

bool tk_cpel_writer_track_def(tk_cpel_writer *w, uint32_t track, uint32_t format_off)
{
	if (!grow((void **)&w->trdefs, w->n_trdefs, sizeof *w->trdefs, &w->trdef_cap))
		return false;
	w->trdefs[w->n_trdefs++] = (def3){track, format_off, 0};
	return true;
}

bool tk_cpel_writer_event(tk_cpel_writer *w, uint64_t ticks, uint32_t track, uint32_t code,
			  uint32_t datum)
{
	if (!grow((void **)&w->events, w->n_events, sizeof *w->events, &w->ev_cap))
		return false;
	w->events[w->n_events++] = (rec){ticks, track, code, datum};
	return true;
}

size_t tk_cpel_writer_n_events(const tk_cpel_writer *w)
{
	return w->n_events;
}

uint32_t *tk_cpel_writer_event_track(tk_cpel_writer *w, size_t i)
{
	return &w->events[i].track;
}

static void put32(tk_writer *o, uint32_t v, bool swap)
{
	uint8_t b[4];
	tk_store_u32(b, v, swap);
	tk_put_mem(o, b, 4);
}

static void put_section(tk_writer *o, uint32_t type, uint64_t len, bool swap)
{
	put32(o, type, swap);
	put32(o, (uint32_t)len, swap);
}

static void put_table_name(tk_writer *o)
{
	char name[TK_CPEL_TABLE_NAME] = {0};
	memcpy(name, TK_CPEL_WRITER_TABLE, strlen(TK_CPEL_WRITER_TABLE));
	tk_put_mem(o, name, sizeof name);
}

tk_status tk_cpel_writer_commit(tk_cpel_writer *w, const char *path, bool little_endian,
				uint32_t file_date, uint32_t ticks_per_second, tk_error *err)
{
	tk_writer *o;
	tk_status st = tk_writer_open_atomic(path, &o, err);
	if (st != TK_OK)
		return st;
	if ((st = tk_cpel_writer_emit(w, o, little_endian, file_date, ticks_per_second, err)) !=
	    TK_OK) {
		tk_writer_abort(o);
		return st;
	}
	return tk_writer_commit(o, err);
}

tk_status tk_cpel_writer_emit(tk_cpel_writer *w, tk_writer *o, bool little_endian,
			      uint32_t file_date, uint32_t ticks_per_second, tk_error *err)
{
	uint64_t ev_len = TK_CPEL_TABLE_NAME + 8 + (uint64_t)w->n_events * TK_CPEL_EVENT_SIZE;
	if (ev_len > UINT32_MAX)
		return tk_error_set(err, TK_ERR_LIMIT, TK_NO_OFFSET,
				    "%zu events do not fit in one CPEL event section (4 GiB)",
				    w->n_events);
	bool swap = little_endian != tk_host_is_le();
	uint8_t hdr[8] = {(uint8_t)(1 | (little_endian ? TK_CPEL_LITTLE_ENDIAN : 0)), 0};
	tk_store_u16(hdr + 2, 4, swap);
	tk_store_u32(hdr + 4, file_date, swap);
	tk_put_mem(o, hdr, 8);

	size_t padded = (w->str_len + 7) & ~(size_t)7; /* VPP pads to 8 */
	put_section(o, TK_CPEL_SECTION_STRTAB, padded, swap);
	tk_put_mem(o, w->strtab, w->str_len);
	for (size_t i = w->str_len; i < padded; i++)
		tk_put_char(o, 0);

	put_section(o, TK_CPEL_SECTION_EVTDEF, TK_CPEL_TABLE_NAME + 4 + w->n_evdefs * 12, swap);
	put_table_name(o);
	put32(o, (uint32_t)w->n_evdefs, swap);
	for (size_t i = 0; i < w->n_evdefs; i++) {
		put32(o, w->evdefs[i].a, swap);
		put32(o, w->evdefs[i].b, swap);
		put32(o, w->evdefs[i].c, swap);
	}

	put_section(o, TK_CPEL_SECTION_TRACKDEF, TK_CPEL_TABLE_NAME + 4 + w->n_trdefs * 8, swap);
	put_table_name(o);
	put32(o, (uint32_t)w->n_trdefs, swap);
	for (size_t i = 0; i < w->n_trdefs; i++) {
		put32(o, w->trdefs[i].a, swap);
		put32(o, w->trdefs[i].b, swap);
	}

	put_section(o, TK_CPEL_SECTION_EVENT, ev_len, swap);
	put_table_name(o);
	put32(o, (uint32_t)w->n_events, swap);
	put32(o, ticks_per_second, swap);
	for (size_t i = 0; i < w->n_events; i++) {
		const rec *r = &w->events[i];
		put32(o, (uint32_t)(r->ticks >> 32), swap);
		put32(o, (uint32_t)r->ticks, swap);
		put32(o, r->track, swap);
		put32(o, r->code, swap);
		put32(o, r->datum, swap);
	}
	/* a flush names the output and the errno; memory writers say out of memory */
	return !o->error ? TK_OK
	       : o->fd >= 0
		   ? tk_writer_flush(o, err)
		   : tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot write the CPEL output");
}
