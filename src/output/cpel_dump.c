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
	uint32_t off, len; /* in the names buffer: the name, padded, and ' ' */
} rendered;

/* A datum format reduced to literal + one simple conversion + literal,
 * for the per-event fast path; anything else goes to tk_safe_format(). */
typedef struct datum_plan {
	bool simple;
	char conv; /* d u x X s */
	bool zero;
	unsigned width; /* <= 20 */
	uint32_t pre_len, post_len;
	const char *pre, *post;
	size_t fmt_len;
} datum_plan;

#define DIRECT_MAX 65536 /* codes below this are looked up in an array */

typedef struct dump_ctx {
	tk_writer *names; /* memory writer holding every rendered name */
	rendered *events, *tracks;
	datum_plan *plans;
	uint32_t *event_direct, *track_direct; /* code -> index + 1 */
} dump_ctx;

static void plan_datum(const char *fmt, datum_plan *p)
{
	memset(p, 0, sizeof *p);
	p->fmt_len = strlen(fmt);
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
	if (p->width > 20 || !strchr("duxXs", *c) || !*c || (*c == 's' && (p->zero || p->width)))
		return;
	p->conv = *c;
	if (strchr(c + 1, '%'))
		return;
	p->pre = fmt;
	p->pre_len = (uint32_t)(pct - fmt);
	p->post = c + 1;
	p->post_len = (uint32_t)strlen(c + 1);
	p->simple = true;
}

/* The fast path of plan_datum's formats: printf semantics for one u32. */
static void put_planned(tk_writer *w, const datum_plan *p, uint32_t v)
{
	char buf[48];
	char *end = buf + sizeof buf, *d = end;
	bool neg = false;
	uint64_t m = v;
	if (p->conv == 'd' && (int32_t)v < 0) {
		neg = true;
		m = (uint64_t)(-(int64_t)(int32_t)v);
	}
	if (p->conv == 'x' || p->conv == 'X') {
		const char *digits = p->conv == 'x' ? "0123456789abcdef" : "0123456789ABCDEF";
		do {
			*--d = digits[m & 15];
			m >>= 4;
		} while (m);
	} else {
		do {
			*--d = (char)('0' + m % 10);
			m /= 10;
		} while (m);
	}
	size_t nd = (size_t)(end - d) + neg;
	if (!tk_writer_reserve(w, p->pre_len + p->post_len + 24))
		return;
	char *o = w->buf + w->pos;
	memcpy(o, p->pre, p->pre_len);
	o += p->pre_len;
	if (p->width > nd) {
		size_t pad = p->width - nd;
		if (p->zero && neg)
			*o++ = '-';
		memset(o, p->zero ? '0' : ' ', pad);
		o += pad;
		if (!p->zero && neg)
			*o++ = '-';
	} else if (neg) {
		*o++ = '-';
	}
	memcpy(o, d, (size_t)(end - d));
	o += end - d;
	memcpy(o, p->post, p->post_len);
	o += p->post_len;
	w->pos = (size_t)(o - w->buf);
}

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
	c->plans = calloc(f->n_evtdefs + 1, sizeof *c->plans);
	c->event_direct = calloc(DIRECT_MAX, sizeof *c->event_direct);
	c->track_direct = calloc(DIRECT_MAX, sizeof *c->track_direct);
	if (!c->events || !c->tracks || !c->plans || !c->event_direct || !c->track_direct)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	for (size_t i = 0; i < f->n_evtdefs; i++) {
		const tk_cpel_evtdef *d = &f->evtdefs[i];
		c->events[i] = render(c->names, d->name_format, d->code, f->widest_name_format);
		plan_datum(d->datum_format, &c->plans[i]);
		if (d->datum_is_string && c->plans[i].conv != 's')
			c->plans[i].simple = false;
		if (d->code < DIRECT_MAX)
			c->event_direct[d->code] = (uint32_t)i + 1;
	}
	for (size_t i = 0; i < f->n_trackdefs; i++) {
		const tk_cpel_trackdef *d = &f->trackdefs[i];
		c->tracks[i] = render(c->names, d->format, d->track, f->widest_track_format);
		if (d->track < DIRECT_MAX)
			c->track_direct[d->track] = (uint32_t)i + 1;
	}
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
	for (uint32_t i = 0; i < s->count; i++) {
		if (*left && --*left == 0)
			return TK_END;
		if ((i & 0xffff) == 0 && f->input) /* keep resident memory flat */
			tk_input_release(f->input, s->offset + (uint64_t)i * TK_CPEL_EVENT_SIZE);
		tk_cpel_event e = tk_cpel_event_at(f, s, i);
		uint64_t ci = e.code < DIRECT_MAX ? c->event_direct[e.code] : 0;
		if (!ci && e.code >= DIRECT_MAX) {
			const uint64_t *p = tk_hashmap_get(&f->evtdef_by_code, e.code);
			ci = p ? *p : 0;
		}
		/* Everything that can fail is checked before the line is begun:
		 * a line is written whole or not at all. */
		const char *str = NULL;
		size_t len = 0;
		if (ci && f->evtdefs[ci - 1].datum_is_string &&
		    !(str = tk_cpel_string(s->strtab, e.datum, &len)))
			return tk_error_set(
			    err, TK_ERR_FORMAT, s->offset + (uint64_t)i * TK_CPEL_EVENT_SIZE + 16,
			    "EVENT section at offset 0x%llx: event %u: datum string offset "
			    "0x%x is outside string table '%s' (%u bytes)",
			    (unsigned long long)s->section_offset, i, e.datum, s->strtab->name,
			    s->strtab->size);
		uint64_t now = ticks_to_us(e.time, ticks_per_us);
		if (i == 0)
			start = now;
		put_time(out, now - start);

		uint64_t ti = e.track < DIRECT_MAX ? c->track_direct[e.track] : 0;
		if (!ti && e.track >= DIRECT_MAX) {
			const uint64_t *p = tk_hashmap_get(&f->trackdef_by_code, e.track);
			ti = p ? *p : 0;
		}
		if (ti) {
			const rendered *r = &c->tracks[ti - 1];
			tk_put_mem(out, names + r->off, r->len);
		} else {
			put_generic(out, e.track, track_w);
		}

		if (!ci) {
			put_generic(out, e.code, name_w);
			tk_put_str(out, "0x");
			tk_put_hex_pad(out, e.datum, 8);
			tk_put_char(out, '\n');
			continue;
		}
		size_t k = ci - 1;
		const rendered *r = &c->events[k];
		tk_put_mem(out, names + r->off, r->len);
		const tk_cpel_evtdef *d = &f->evtdefs[k];
		const datum_plan *plan = &c->plans[k];
		tk_fmt_arg a = {.kind = TK_FMT_ARG_INT, .u = e.datum};
		if (d->datum_is_string) {
			if (plan->simple) {
				tk_put_mem(out, plan->pre, plan->pre_len);
				tk_put_mem(out, str, len);
				tk_put_mem(out, plan->post, plan->post_len);
				tk_put_char(out, '\n');
				continue;
			}
			a.kind = TK_FMT_ARG_STRING;
			a.s = str;
			a.len = len;
		} else if (plan->simple) {
			put_planned(out, plan, e.datum);
			tk_put_char(out, '\n');
			continue;
		}
		tk_safe_format(out, TK_FMT_PRINTF, d->datum_format, plan->fmt_len, &a, 1);
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
	free(c.plans);
	free(c.event_direct);
	free(c.track_direct);
	return st;
}
