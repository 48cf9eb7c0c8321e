/* The log as CPEL, shaped as VPP's c2cpel shapes an elog: one string table
 * "FileStrtab", an event definition per event type named by its format up
 * to the first ' ', '%' or '(', datum format "%s" holding the rest of the
 * event's text, a track definition per track, a 1 GHz clock with times
 * relative to the first event. So `tracekit print --format cpeldump` prints
 * this file as it prints the elog dump of the same log.
 *
 * The string table precedes the events, so event records wait in memory
 * (20 bytes each) while the table streams out. */
#include <stdlib.h>
#include <string.h>

#include "log/log_impl.h"

#define TABLE    "FileStrtab"
#define TEXT_MAX 16384 /* 6 directives of at most 1024 + 400 bytes, the format */

typedef struct rec {
	uint64_t ns;
	uint32_t track, code, datum;
} rec;

typedef struct cpel_ctx {
	tk_lg_out *o;
	uint64_t tab_start; /* offset of the string table's first byte */
	uint32_t tab_len;
	bool too_big;
} cpel_ctx;

static uint32_t add_string(cpel_ctx *c, const char *s, size_t n)
{
	uint32_t off = c->tab_len;
	if ((uint64_t)c->tab_len + n + 1 > UINT32_MAX - 8) {
		c->too_big = true;
		return 0;
	}
	tk_lg_out_bytes(c->o, s, n);
	tk_lg_out_u8(c->o, 0);
	c->tab_len += (uint32_t)n + 1;
	return off;
}

/* c2cpel's seconds -> ns as x86-64 converts a double to u64 */
static uint64_t to_ns(double delta)
{
	double ns = delta * 1e9;
	if (!(ns == ns))
		return 0;
	if (ns < 0)
		return ns > -9.2e18 ? (uint64_t)(int64_t)ns : 0;
	if (ns >= 18446744073709551615.0)
		return UINT64_MAX;
	return (uint64_t)ns;
}

static void put_name(tk_lg_out *o)
{
	char name[64] = TABLE;
	tk_lg_out_bytes(o, name, sizeof name);
}

bool tk_lg_emit_cpel(tk_lg_out *o, const tk_lg_view *v, tk_lg_iter *it, uint32_t file_date)
{
	uint8_t hdr[8] = {1,
			  0,
			  0,
			  4,
			  (uint8_t)(file_date >> 24),
			  (uint8_t)(file_date >> 16),
			  (uint8_t)(file_date >> 8),
			  (uint8_t)file_date};
	tk_lg_out_bytes(o, hdr, 8);
	tk_lg_out_be32(o, 1); /* STRTAB */
	uint64_t len_at = o->pos;
	tk_lg_out_be32(o, 0);
	cpel_ctx c = {.o = o, .tab_start = o->pos};
	add_string(&c, TABLE, strlen(TABLE));
	uint32_t fmt_s = add_string(&c, "%s", 2);
	uint32_t name_off[LG_MAX_TYPES], track_off[LG_MAX_TRACKS];
	bool type_seen[LG_MAX_TYPES] = {0}, track_seen[LG_MAX_TRACKS] = {0};
	unsigned type_order[LG_MAX_TYPES], track_order[LG_MAX_TRACKS];
	unsigned n_type_defs = 0, n_track_defs = 0;
	rec *recs = NULL;
	size_t n = 0, cap = 0;
	char *text = malloc(TEXT_MAX); /* the event's text; CPEL dumps already allocate */
	bool have_start = false, ok = true;
	double start = 0;
	tk_lg_iter_init(it, v, -1);
	tk_lg_event e;
	while (text && tk_lg_iter_next(it, &e)) {
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 4096;
			rec *nr = realloc(recs, nc * sizeof *nr);
			if (!nr) {
				ok = false;
				break;
			}
			recs = nr;
			cap = nc;
		}
		const tk_lg_vtype *t = &v->types[e.type];
		if (!type_seen[e.type]) {
			type_seen[e.type] = true;
			type_order[n_type_defs++] = e.type;
			name_off[e.type] = add_string(&c, t->format, t->name_len);
		}
		if (!track_seen[e.track]) {
			track_seen[e.track] = true;
			track_order[n_track_defs++] = e.track;
			track_off[e.track] =
			    add_string(&c, v->tracks[e.track], strlen(v->tracks[e.track]));
		}
		size_t tl = tk_lg_format_event(text, TEXT_MAX, v, &e);
		tl = strnlen(text, tl); /* c2cpel takes the text as a C string */
		size_t skip = t->name_len + 1;
		const char *datum = skip <= tl ? text + skip : "";
		size_t dl = skip <= tl ? tl - skip : 0;
		if (!have_start) {
			start = e.seconds;
			have_start = true;
		}
		recs[n++] =
		    (rec){to_ns(e.seconds - start), e.track, e.type, add_string(&c, datum, dl)};
	}
	ok = ok && text && !c.too_big && (uint64_t)n * 20 + 72 <= UINT32_MAX;
	uint32_t padded = (c.tab_len + 7) & ~7u; /* VPP pads to 8 */
	for (uint32_t i = c.tab_len; i < padded; i++)
		tk_lg_out_u8(o, 0);
	uint8_t b[4] = {(uint8_t)(padded >> 24), (uint8_t)(padded >> 16), (uint8_t)(padded >> 8),
			(uint8_t)padded};
	tk_lg_out_patch(o, len_at, b, 4);

	tk_lg_out_be32(o, 3); /* EVTDEF */
	tk_lg_out_be32(o, 64 + 4 + n_type_defs * 12);
	put_name(o);
	tk_lg_out_be32(o, n_type_defs);
	for (unsigned i = 0; i < n_type_defs; i++) {
		tk_lg_out_be32(o, type_order[i]);
		tk_lg_out_be32(o, name_off[type_order[i]]);
		tk_lg_out_be32(o, fmt_s);
	}
	tk_lg_out_be32(o, 4); /* TRACKDEF */
	tk_lg_out_be32(o, 64 + 4 + n_track_defs * 8);
	put_name(o);
	tk_lg_out_be32(o, n_track_defs);
	for (unsigned i = 0; i < n_track_defs; i++) {
		tk_lg_out_be32(o, track_order[i]);
		tk_lg_out_be32(o, track_off[track_order[i]]);
	}
	tk_lg_out_be32(o, 5); /* EVENT */
	tk_lg_out_be32(o, (uint32_t)(64 + 8 + n * 20));
	put_name(o);
	tk_lg_out_be32(o, (uint32_t)n);
	tk_lg_out_be32(o, 1000000000u);
	for (size_t i = 0; i < n; i++) {
		tk_lg_out_be32(o, (uint32_t)(recs[i].ns >> 32));
		tk_lg_out_be32(o, (uint32_t)recs[i].ns);
		tk_lg_out_be32(o, recs[i].track);
		tk_lg_out_be32(o, recs[i].code);
		tk_lg_out_be32(o, recs[i].datum);
	}
	free(recs);
	free(text);
	return ok && !o->failed;
}
