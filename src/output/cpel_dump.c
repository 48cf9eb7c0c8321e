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

#include "cpel/cpel_text.h"
#include "cpel/safe_format.h"
#include "session/session_cpel.h"

typedef struct rendered {
	uint32_t off, len; /* in the names buffer: the name, padded, and ' ' */
} rendered;

#define DIRECT_MAX 65536 /* codes below this are looked up in an array */
#define NAME_COPY  32    /* names this long or shorter: one fixed-size copy */

typedef struct dump_ctx {
	const tk_cpel_file *f;
	tk_writer *names; /* memory writer holding every rendered name */
	rendered *events, *tracks;
	tk_cpel_datum_plan *plans;
	uint32_t *event_direct, *track_direct; /* code -> index + 1 */
	/* the section being dumped */
	double ticks_per_us;
	uint64_t start;
	/* "hhh:mm:ss:" of the second [sec_base, sec_base + 1 s) of the time
	 * since the start, as cpeldump prints it; sec_base = UINT64_MAX: none */
	uint64_t sec_base;
	char prefix[48];
	uint32_t prefix_len;
	char ms[1000][4], us[1000][4]; /* "ddd:" and "ddd " */
} dump_ctx;

/* printf("%.0Nd", (int)v): at least prec digits, sign first. */
static char *put_prec_int(char *o, uint32_t u, unsigned prec)
{
	int32_t v = (int32_t)u;
	uint64_t mag = v < 0 ? (uint64_t)(-(int64_t)v) : (uint64_t)v;
	if (v < 0)
		*o++ = '-';
	char tmp[12];
	size_t n = 0;
	do {
		tmp[n++] = (char)('0' + mag % 10);
		mag /= 10;
	} while (mag);
	while (prec > n) {
		*o++ = '0';
		prec--;
	}
	while (n)
		*o++ = tmp[--n];
	return o;
}

#define USEC_PER_MS     1000ULL
#define USEC_PER_SECOND (1000 * USEC_PER_MS)
#define USEC_PER_MINUTE (60 * USEC_PER_SECOND)
#define USEC_PER_HOUR   (60 * USEC_PER_MINUTE)

/* cpeldump's h:m:s:ms:us, the general way (any delta, with its u32
 * truncations). */
static void put_time_slow(tk_writer *w, uint64_t delta)
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
	if (!tk_writer_reserve(w, 5 * 12 + 5))
		return;
	char *o = w->buf + w->pos;
	o = put_prec_int(o, hours, 3);
	*o++ = ':';
	o = put_prec_int(o, minutes, 2);
	*o++ = ':';
	o = put_prec_int(o, seconds, 2);
	*o++ = ':';
	o = put_prec_int(o, msec, 3);
	*o++ = ':';
	o = put_prec_int(o, usec, 3);
	*o++ = ' ';
	w->pos = (size_t)(o - w->buf);
}

/* Below this the hours fit the u32 cpeldump keeps them in, so the fields
 * are plain quotient and remainders: the "hhh:mm:ss:" part changes once a
 * second and is kept, ms and us come from tables. */
#define FAST_DELTA_MAX ((uint64_t)UINT32_MAX * USEC_PER_HOUR)

static void put_time(dump_ctx *c, tk_writer *w, uint64_t delta)
{
	if (delta >= FAST_DELTA_MAX) {
		put_time_slow(w, delta);
		return;
	}
	uint64_t rem = delta - c->sec_base;
	if (c->sec_base == UINT64_MAX || rem >= USEC_PER_SECOND) {
		uint64_t sec = delta / USEC_PER_SECOND;
		c->sec_base = sec * USEC_PER_SECOND;
		rem = delta - c->sec_base;
		char *o = c->prefix;
		o = put_prec_int(o, (uint32_t)(sec / 3600), 3);
		*o++ = ':';
		o = put_prec_int(o, (uint32_t)(sec / 60 % 60), 2);
		*o++ = ':';
		o = put_prec_int(o, (uint32_t)(sec % 60), 2);
		*o++ = ':';
		c->prefix_len = (uint32_t)(o - c->prefix);
	}
	if (!tk_writer_reserve(w, sizeof c->prefix + 8))
		return;
	char *o = w->buf + w->pos;
	memcpy(o, c->prefix, sizeof c->prefix);
	o += c->prefix_len;
	uint32_t r = (uint32_t)rem;
	memcpy(o, c->ms[r / 1000], 4);
	memcpy(o + 4, c->us[r % 1000], 4);
	w->pos = (size_t)(o + 8 - w->buf);
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

/* The name, padded to width as "%-Ns " does. */
static rendered render(tk_writer *names, const char *fmt, uint32_t code, size_t width)
{
	rendered r;
	r.off = (uint32_t)names->pos;
	tk_safe_format_u32(names, TK_FMT_VPPINFRA, fmt, code);
	size_t len = names->pos - r.off;
	if (len < width)
		tk_put_spaces(names, (unsigned)(width - len));
	tk_put_char(names, ' ');
	r.len = (uint32_t)(names->pos - r.off);
	return r;
}

/* A rendered name: short ones (most) in one fixed-size copy, which may
 * read past the name (the names buffer ends in NAME_COPY spare bytes). */
static inline void put_name(tk_writer *w, const char *names, const rendered *r)
{
	if (r->len > NAME_COPY || !tk_writer_reserve(w, NAME_COPY)) {
		tk_put_mem(w, names + r->off, r->len);
		return;
	}
	memcpy(w->buf + w->pos, names + r->off, NAME_COPY);
	w->pos += r->len;
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
	c->f = f;
	c->sec_base = UINT64_MAX;
	for (unsigned i = 0; i < 1000; i++) {
		char d[4] = {(char)('0' + i / 100), (char)('0' + i / 10 % 10),
			     (char)('0' + i % 10)};
		memcpy(c->ms[i], d, 3);
		c->ms[i][3] = ':';
		memcpy(c->us[i], d, 3);
		c->us[i][3] = ' ';
	}
	tk_status st = tk_writer_open_memory(&c->names, err);
	if (st != TK_OK)
		return st;
	c->events = calloc(f->n_evtdefs + 1, sizeof *c->events);
	c->tracks = calloc(f->n_trackdefs + 1, sizeof *c->tracks);
	c->plans = calloc(f->n_evtdefs + 1, sizeof *c->plans);
	c->event_direct = calloc(DIRECT_MAX, sizeof *c->event_direct);
	c->track_direct = calloc(DIRECT_MAX, sizeof *c->track_direct);
	if (!c->events || !c->tracks || !c->plans || !c->event_direct || !c->track_direct)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	for (size_t i = 0; i < f->n_evtdefs; i++) {
		const tk_cpel_evtdef *d = &f->evtdefs[i];
		c->events[i] = render(c->names, d->name_format, d->code, f->widest_name_format);
		tk_cpel_plan_datum(d->datum_format, d->datum_is_string, &c->plans[i]);
		if (d->code < DIRECT_MAX)
			c->event_direct[d->code] = (uint32_t)i + 1;
	}
	for (size_t i = 0; i < f->n_trackdefs; i++) {
		const tk_cpel_trackdef *d = &f->trackdefs[i];
		c->tracks[i] = render(c->names, d->format, d->track, f->widest_track_format);
		if (d->track < DIRECT_MAX)
			c->track_direct[d->track] = (uint32_t)i + 1;
	}
	tk_put_spaces(c->names, NAME_COPY); /* put_name's spare bytes */
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

/* A new section: its clock, and times counted from its first event. */
static void begin_section(dump_ctx *c, const tk_cpel_events *s)
{
	c->ticks_per_us = (double)s->ticks_per_second / 1e6;
	c->sec_base = UINT64_MAX;
}

/* One event's line: event i of section s. */
static tk_status dump_event(dump_ctx *c, const tk_cpel_events *s, uint32_t i, tk_cpel_event e,
			    tk_writer *out, tk_error *err)
{
	const tk_cpel_file *f = c->f;
	const char *names = c->names->buf;
	uint64_t ci = e.code < DIRECT_MAX ? c->event_direct[e.code] : 0;
	if (!ci && e.code >= DIRECT_MAX) {
		const uint64_t *p = tk_hashmap_get(&f->evtdef_by_code, e.code);
		ci = p ? *p : 0;
	}
	/* Everything that can fail is checked before the line is begun:
	 * a line is written whole or not at all. */
	const char *str = NULL;
	size_t len = 0;
	if (ci && c->plans[ci - 1].is_string && !(str = tk_cpel_string(s->strtab, e.datum, &len)))
		return tk_error_set(err, TK_ERR_FORMAT,
				    s->offset + (uint64_t)i * TK_CPEL_EVENT_SIZE + 16,
				    "EVENT section at offset 0x%llx: event %u: datum string offset "
				    "0x%x is outside string table '%s' (%u bytes)",
				    (unsigned long long)s->section_offset, i, e.datum,
				    s->strtab->name, s->strtab->size);
	uint64_t now = ticks_to_us(e.time, c->ticks_per_us);
	if (i == 0)
		c->start = now;
	put_time(c, out, now - c->start);

	uint64_t ti = e.track < DIRECT_MAX ? c->track_direct[e.track] : 0;
	if (!ti && e.track >= DIRECT_MAX) {
		const uint64_t *p = tk_hashmap_get(&f->trackdef_by_code, e.track);
		ti = p ? *p : 0;
	}
	if (ti)
		put_name(out, names, &c->tracks[ti - 1]);
	else
		put_generic(out, e.track, f->widest_track_format);

	if (!ci) {
		put_generic(out, e.code, f->widest_name_format);
		tk_put_lit(out, "0x");
		tk_put_hex_pad(out, e.datum, 8);
		tk_put_char(out, '\n');
		return TK_OK;
	}
	put_name(out, names, &c->events[ci - 1]);
	tk_cpel_put_datum(out, &c->plans[ci - 1], e.datum, str, len);
	tk_put_char(out, '\n');
	return TK_OK;
}

typedef struct dump_run {
	dump_ctx *c;
	tk_writer *out;
	uint64_t limit, n;
	const tk_cpel_events *section;
} dump_run;

static tk_status on_record(tk_session *s, const tk_session_item *item, void *user, tk_error *err)
{
	(void)s;
	dump_run *r = user;
	if ((int)item->kind != TK_SESSION_CPEL_EVENT)
		return TK_OK;
	const tk_cpel_record *rec = item->native;
	if (r->limit && r->n++ >= r->limit)
		return TK_END;
	/* a write failed (the reader left: `| head`): nothing more can go
	 * out; the CLI reports it as it commits the output */
	if (tk_writer_failed(r->out))
		return TK_END;
	if (rec->section != r->section) {
		r->section = rec->section;
		begin_section(r->c, rec->section);
	}
	return dump_event(r->c, rec->section, rec->index, rec->event, r->out, err);
}

tk_status tk_cpel_dump_session(tk_session *s, tk_writer *out, uint64_t limit, tk_error *err)
{
	const tk_cpel_file *f = tk_session_cpel(s);
	if (!f)
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET, "not a native CPEL session");
	dump_ctx *c = calloc(1, sizeof *c);
	if (!c)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	tk_status st = prepare(f, c, err);
	if (st == TK_OK) {
		dump_run r = {.c = c, .out = out, .limit = limit};
		tk_session_tool tool = {.record = on_record};
		st = tk_session_run(s, &tool, &r, err);
	}
	tk_writer_abort(c->names);
	free(c->events);
	free(c->tracks);
	free(c->plans);
	free(c->event_direct);
	free(c->track_direct);
	free(c);
	return st;
}

tk_status tk_cpel_dump(const tk_cpel_file *f, tk_writer *out, uint64_t limit, tk_error *err)
{
	tk_session *s;
	/* the session only reads f: it is not closed with it */
	tk_status st = tk_session_open_cpel((tk_cpel_file *)f, false, "cpel", &s, err);
	if (st != TK_OK)
		return st;
	st = tk_cpel_dump_session(s, out, limit, err);
	tk_session_close(s);
	return st;
}
