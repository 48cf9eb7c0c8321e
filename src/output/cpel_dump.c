/* cpeldump renderer; see cpel_dump.h.
 *
 * cpeldump formats track and event names with vppinfra's format() and the
 * datum with fprintf(); names are padded to the longest *raw* format of all
 * definitions (at least 5), the time is printed as h:m:s:ms:us since the
 * first event of the section, truncated, with cpeldump's own u32/int
 * arithmetic (so even wrapped values print the same).
 *
 * Names depend only on the code, so they are rendered once per definition;
 * the per-event path formats the time and the datum into the writer and
 * allocates nothing. */
#include "output/cpel_dump.h"

#include <stdlib.h>

#include "cpel/safe_format.h"

typedef struct rendered {
	uint32_t off, len; /* in the names buffer */
} rendered;

typedef struct dump_ctx {
	tk_writer *names; /* memory writer holding every rendered name */
	rendered *events, *tracks;
	size_t *datum_len;
} dump_ctx;

/* printf("%.0Nd", (int)v): at least prec digits, sign first. */
static void put_prec_int(tk_writer *w, uint32_t u, unsigned prec)
{
	int32_t v = (int32_t)u;
	uint64_t mag = v < 0 ? (uint64_t)(-(int64_t)v) : (uint64_t)v;
	if (v < 0)
		tk_put_char(w, '-');
	tk_put_u64_pad(w, mag, prec, '0');
}

#define USEC_PER_MS 1000ULL
#define USEC_PER_SECOND (1000 * USEC_PER_MS)
#define USEC_PER_MINUTE (60 * USEC_PER_SECOND)
#define USEC_PER_HOUR (60 * USEC_PER_MINUTE)

static void put_time(tk_writer *w, uint64_t delta)
{
	uint32_t hours = (uint32_t)(delta / USEC_PER_HOUR);
	delta -= (uint64_t)hours * USEC_PER_HOUR;
	uint32_t minutes = (uint32_t)(delta / USEC_PER_MINUTE);
	delta -= (uint64_t)minutes * USEC_PER_MINUTE;
	uint32_t seconds = (uint32_t)(delta / USEC_PER_SECOND);
	delta -= (uint64_t)seconds * USEC_PER_SECOND;
	uint32_t msec = (uint32_t)(delta / USEC_PER_MS);
	delta -= (uint64_t)msec * USEC_PER_MS;
	uint32_t usec = (uint32_t)delta;
	put_prec_int(w, hours, 3);
	tk_put_char(w, ':');
	put_prec_int(w, minutes, 2);
	tk_put_char(w, ':');
	put_prec_int(w, seconds, 2);
	tk_put_char(w, ':');
	put_prec_int(w, msec, 3);
	tk_put_char(w, ':');
	put_prec_int(w, usec, 3);
	tk_put_char(w, ' ');
}

/* cpeldump: d = ticks; d /= ticks_per_us; now = (u64)d. */
static uint64_t ticks_to_us(uint64_t ticks, double ticks_per_us)
{
	double d = (double)ticks / ticks_per_us;
	if (!(d >= 0))
		return 0;
	if (d >= 18446744073709551615.0)
		return UINT64_MAX;
	return (uint64_t)d;
}

static rendered render(tk_writer *names, const char *fmt, uint32_t code)
{
	rendered r;
	r.off = (uint32_t)names->pos;
	tk_safe_format_u32(names, TK_FMT_VPPINFRA, fmt, code);
	r.len = (uint32_t)(names->pos - r.off);
	return r;
}

static void put_padded(tk_writer *w, const char *s, size_t len, size_t width)
{
	tk_put_mem(w, s, len);
	if (len < width)
		tk_put_spaces(w, (unsigned)(width - len));
	tk_put_char(w, ' ');
}

static tk_status prepare(const tk_cpel_file *f, dump_ctx *c, tk_error *err)
{
	tk_status st = tk_writer_open_memory(&c->names, err);
	if (st != TK_OK)
		return st;
	c->events = calloc(f->n_evtdefs + 1, sizeof *c->events);
	c->tracks = calloc(f->n_trackdefs + 1, sizeof *c->tracks);
	c->datum_len = calloc(f->n_evtdefs + 1, sizeof *c->datum_len);
	if (!c->events || !c->tracks || !c->datum_len)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	for (size_t i = 0; i < f->n_evtdefs; i++) {
		c->events[i] = render(c->names, f->evtdefs[i].name_format, f->evtdefs[i].code);
		c->datum_len[i] = strlen(f->evtdefs[i].datum_format);
	}
	for (size_t i = 0; i < f->n_trackdefs; i++)
		c->tracks[i] = render(c->names, f->trackdefs[i].format, f->trackdefs[i].track);
	if (c->names->error)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	return TK_OK;
}

static void put_generic(tk_writer *w, uint32_t v, size_t width)
{
	char buf[24];
	int32_t s = (int32_t)v;
	size_t n;
	if (s < 0) {
		buf[0] = '-';
		n = 1 + tk_fmt_u64(buf + 1, (uint64_t)(-(int64_t)s));
	} else {
		n = tk_fmt_u64(buf, (uint64_t)s);
	}
	put_padded(w, buf, n, width);
}

static tk_status dump_section(const tk_cpel_file *f, const dump_ctx *c, const tk_cpel_events *s,
			      tk_writer *out, uint64_t *left, tk_error *err)
{
	const char *names = c->names->buf;
	double ticks_per_us = (double)s->ticks_per_second / 1e6;
	uint64_t start = 0;
	size_t name_w = f->widest_name_format, track_w = f->widest_track_format;
	/* One-entry caches: consecutive events often share track and code. */
	uint32_t last_track = 0, last_code = 0;
	const uint64_t *track_idx = NULL, *code_idx = NULL;
	bool have_track = false, have_code = false;
	for (uint32_t i = 0; i < s->count; i++) {
		if (*left && --*left == 0)
			return TK_END;
		tk_cpel_event e = tk_cpel_event_at(f, s, i);
		uint64_t now = ticks_to_us(e.time, ticks_per_us);
		if (i == 0)
			start = now;
		put_time(out, now - start);

		if (!have_track || e.track != last_track) {
			track_idx = tk_hashmap_get(&f->trackdef_by_code, e.track);
			last_track = e.track;
			have_track = true;
		}
		if (track_idx) {
			const rendered *r = &c->tracks[*track_idx - 1];
			put_padded(out, names + r->off, r->len, track_w);
		} else {
			put_generic(out, e.track, track_w);
		}

		if (!have_code || e.code != last_code) {
			code_idx = tk_hashmap_get(&f->evtdef_by_code, e.code);
			last_code = e.code;
			have_code = true;
		}
		if (!code_idx) {
			put_generic(out, e.code, name_w);
			tk_put_str(out, "0x");
			tk_put_hex_pad(out, e.datum, 8);
			tk_put_char(out, '\n');
			continue;
		}
		size_t k = *code_idx - 1;
		const rendered *r = &c->events[k];
		put_padded(out, names + r->off, r->len, name_w);
		const tk_cpel_evtdef *d = &f->evtdefs[k];
		tk_fmt_arg a = {.kind = TK_FMT_ARG_INT, .u = e.datum};
		if (d->datum_is_string) {
			size_t len;
			const char *str = tk_cpel_string(s->strtab, e.datum, &len);
			if (!str) {
				tk_put_char(out, '\n');
				return tk_error_set(err, TK_ERR_FORMAT, s->offset + (uint64_t)i * TK_CPEL_EVENT_SIZE + 16,
						    "EVENT section at offset 0x%llx: event %u: datum string offset 0x%x is outside string table '%s' (%u bytes)",
						    (unsigned long long)s->section_offset, i, e.datum, s->strtab->name,
						    s->strtab->size);
			}
			a.kind = TK_FMT_ARG_STRING;
			a.s = str;
			a.len = len;
		}
		tk_safe_format(out, TK_FMT_PRINTF, d->datum_format, c->datum_len[k], &a, 1);
		tk_put_char(out, '\n');
	}
	return TK_OK;
}

tk_status tk_cpel_dump(const tk_cpel_file *f, tk_writer *out, uint64_t limit, tk_error *err)
{
	dump_ctx c = {0};
	tk_status st = prepare(f, &c, err);
	/* left counts down to 1 so that `limit` events are printed. */
	uint64_t left = limit ? limit + 1 : 0;
	for (size_t i = 0; i < f->n_event_sections && st == TK_OK; i++)
		st = dump_section(f, &c, &f->event_sections[i], out, &left, err);
	if (st == TK_END)
		st = TK_OK;
	tk_writer_abort(c.names);
	free(c.events);
	free(c.tracks);
	free(c.datum_len);
	return st;
}
