/* CPEL and elog as model sources; see cpel_adapters.h.
 *
 * Classes are built once (elog: one per event type at open; CPEL: one per
 * event code, on first sight, at most MAX_CODE_CLASSES of them, then a
 * shared "unknown" class). Per event, the formatted strings go into one
 * reusable memory writer and the values into the scratch arena: nothing is
 * allocated per event after warm-up. */
#include "cpel/cpel_adapters.h"

#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/hashmap.h"
#include "base/writer.h"
#include "cpel/cpel_reader.h"
#include "cpel/cpel_text.h"
#include "cpel/elog_reader.h"
#include "cpel/safe_format.h"
#include "model/source_impl.h"

#define MAX_CODE_CLASSES 4096

static const tk_field_class str_class = {.kind = TK_TYPE_STRING};
static const tk_field_class u32_class = {.kind = TK_TYPE_INT, .bits = 32, .base = 10};
static const tk_field_class hex_class = {.kind = TK_TYPE_INT, .bits = 32, .base = 16};

/* CPEL payload: track, code, datum (int), text */
static const tk_member cpel_int_members[] = {
    {"track", &str_class}, {"code", &u32_class}, {"datum", &hex_class}, {"text", &str_class}};
static const tk_member cpel_str_members[] = {
    {"track", &str_class}, {"code", &u32_class}, {"datum", &str_class}, {"text", &str_class}};
static const tk_field_class cpel_int_payload = {
    .kind = TK_TYPE_STRUCT, .members = cpel_int_members, .n_members = 4};
static const tk_field_class cpel_str_payload = {
    .kind = TK_TYPE_STRUCT, .members = cpel_str_members, .n_members = 4};
static const tk_member elog_members[] = {{"track", &str_class}, {"text", &str_class}};
static const tk_field_class elog_payload = {
    .kind = TK_TYPE_STRUCT, .members = elog_members, .n_members = 2};

typedef struct common {
	tk_source base;
	tk_arena classes;
	tk_writer *text; /* per-event strings */
	tk_value values[4];
	tk_value payload;
	tk_event ev;
} common;

static tk_status common_init(common *c, const char *path, tk_format fmt, tk_error *err)
{
	tk_arena_init(&c->classes, 16384);
	c->base.info.format = fmt;
	c->base.info.name = tk_arena_strdup(&c->classes, path);
	return tk_writer_open_memory(&c->text, err);
}

static void common_free(common *c)
{
	tk_writer_abort(c->text);
	tk_arena_free(&c->classes);
	tk_source_classes_free(&c->base);
}

static tk_event_class *add_class(common *c, uint64_t id, const char *name, size_t name_len,
				 const char *format, const tk_field_class *payload)
{
	tk_event_class *k = tk_arena_calloc(&c->classes, 1, sizeof *k);
	char *nm = tk_arena_strndup(&c->classes, name, name_len);
	if (!k || !nm)
		return NULL;
	k->id = id;
	k->name = nm;
	k->loglevel = -1;
	k->format = format;
	k->payload = payload;
	return tk_source_add_class(&c->base, k) ? k : NULL;
}

static void set_str(tk_value *v, const char *s, size_t len)
{
	v->cls = &str_class;
	v->v.str.ptr = s;
	v->v.str.len = len;
}

/* ---------------- CPEL ---------------- */

#define DIRECT_MAX 65536 /* codes and tracks below this: looked up in an array */

/* What an event code needs per event, made once per code. */
typedef struct code_info {
	tk_event_class *cls;
	tk_cpel_datum_plan plan;
} code_info;

/* A defined track's formatted name, made on first use. */
typedef struct track_name {
	const char *s; /* NULL until made */
	size_t len;
} track_name;

typedef struct cpel_source {
	common c;
	tk_cpel_file *f;
	tk_cpel_cursor cur;
	tk_hashmap class_by_code; /* code -> index into codes + 1 */
	code_info *codes;         /* defined codes + at most MAX_CODE_CLASSES undefined */
	size_t n_codes;
	code_info unknown_info; /* the codes past those: one shared class */
	uint32_t *code_direct;  /* code < DIRECT_MAX -> index into codes + 1 */
	uint32_t *track_direct; /* track < DIRECT_MAX -> trackdef index + 1 */
	track_name *tracks;     /* per trackdef */
	tk_event_class *unknown;
	tk_cpel_datum_plan unknown_plan; /* "0x%08x": undefined codes */
	/* the current section's clock: ns = ticks * ns_mul when the clock
	 * divides 1 GHz, else the exact quotient */
	uint64_t ns_mul;
	uint32_t tps;
	const tk_cpel_events *clock_of;
	tk_clock_info clock;
} cpel_source;

static const code_info *cpel_code(cpel_source *s, uint32_t code)
{
	uint32_t k = code < DIRECT_MAX ? s->code_direct[code] : 0;
	if (k)
		return &s->codes[k - 1];
	if (code >= DIRECT_MAX) {
		const uint64_t *p = tk_hashmap_get(&s->class_by_code, code);
		if (p)
			return &s->codes[*p - 1];
	}
	const tk_cpel_evtdef *d = tk_cpel_find_evtdef(s->f, code);
	if (!d && s->n_codes >= MAX_CODE_CLASSES) {
		code_info *u = &s->unknown_info;
		if (!s->unknown) {
			s->unknown = add_class(&s->c, UINT32_MAX + (uint64_t)1, "unknown", 7, NULL,
					       &cpel_int_payload);
			u->cls = s->unknown;
			u->plan = s->unknown_plan;
		}
		return s->unknown ? u : NULL;
	}
	tk_writer *w = s->c.text;
	w->pos = 0;
	tk_safe_format_u32(w, TK_FMT_VPPINFRA, d ? d->name_format : "%d", code);
	if (w->error)
		return NULL;
	code_info *ci = &s->codes[s->n_codes];
	ci->cls = add_class(&s->c, code, w->buf, w->pos, d ? d->datum_format : "0x%08x",
			    d && d->datum_is_string ? &cpel_str_payload : &cpel_int_payload);
	if (!ci->cls)
		return NULL;
	if (d)
		tk_cpel_plan_datum(d->datum_format, d->datum_is_string, &ci->plan);
	else
		ci->plan = s->unknown_plan;
	s->n_codes++;
	if (code < DIRECT_MAX)
		s->code_direct[code] = (uint32_t)s->n_codes;
	else if (!tk_hashmap_put(&s->class_by_code, code, s->n_codes))
		return NULL;
	return ci;
}

/* The track's name: a defined track's is formatted once and kept; an
 * undefined one ("%d" of the number) is written to w. */
static bool cpel_track(cpel_source *s, uint32_t track, tk_writer *w, const char **name, size_t *len)
{
	uint64_t ti = track < DIRECT_MAX ? s->track_direct[track] : 0;
	if (!ti && track >= DIRECT_MAX) {
		const uint64_t *p = tk_hashmap_get(&s->f->trackdef_by_code, track);
		ti = p ? *p : 0;
	}
	if (!ti) {
		tk_safe_format_u32(w, TK_FMT_VPPINFRA, "%d", track);
		*name = NULL;
		*len = w->pos;
		return true;
	}
	track_name *t = &s->tracks[ti - 1];
	if (!t->s) {
		size_t at = w->pos;
		tk_safe_format_u32(w, TK_FMT_VPPINFRA, s->f->trackdefs[ti - 1].format, track);
		size_t n = w->pos - at;
		char *copy = w->error ? NULL : tk_arena_strndup(&s->c.classes, w->buf + at, n);
		w->pos = at;
		if (!copy)
			return false;
		t->s = copy;
		t->len = n;
	}
	*name = t->s;
	*len = t->len;
	return true;
}

static void cpel_set_clock(cpel_source *s, const tk_cpel_events *es)
{
	s->clock_of = es;
	s->tps = es->ticks_per_second;
	s->ns_mul = s->tps && 1000000000u % s->tps == 0 ? 1000000000u / s->tps : 0;
}

static tk_status cpel_next(tk_source *src, const tk_event **out, tk_error *err)
{
	cpel_source *s = (cpel_source *)src;
	if (!tk_cpel_cursor_next(&s->cur))
		return TK_END;
	const tk_cpel_record *r = &s->cur.rec;
	const tk_cpel_events *es = r->section;
	if (es != s->clock_of)
		cpel_set_clock(s, es);
	uint32_t i = r->index;
	tk_cpel_event e = r->event;
	const code_info *ci = cpel_code(s, e.code);
	if (!ci)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	const char *str = NULL;
	size_t str_len = 0;
	if (ci->plan.is_string) {
		str = tk_cpel_string(es->strtab, e.datum, &str_len);
		if (!str)
			return tk_error_set(
			    err, TK_ERR_FORMAT, es->offset + (uint64_t)i * TK_CPEL_EVENT_SIZE + 16,
			    "EVENT section at offset 0x%llx: event %u: datum string offset 0x%x is "
			    "outside string table '%s' (%u bytes)",
			    (unsigned long long)es->section_offset, i, e.datum, es->strtab->name,
			    es->strtab->size);
	}
	tk_writer *w = s->c.text;
	w->pos = 0;
	const char *track;
	size_t track_len;
	if (!cpel_track(s, e.track, w, &track, &track_len))
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	size_t text_at = w->pos;
	tk_cpel_put_datum(w, &ci->plan, e.datum, str, str_len);
	if (w->error)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	/* strings in w point into w->buf: set them after the last write */
	set_str(&s->c.values[0], track ? track : w->buf, track_len);
	s->c.values[1].v.u = e.code;
	if (str) {
		set_str(&s->c.values[2], str, str_len);
	} else {
		s->c.values[2].cls = &hex_class;
		s->c.values[2].v.u = e.datum;
	}
	set_str(&s->c.values[3], w->buf + text_at, w->pos - text_at);
	s->c.payload.cls = ci->cls->payload;
	tk_event *ev = &s->c.ev;
	ev->cls = ci->cls;
	ev->stream_instance = r->section_index;
	ev->time_raw = e.time;
	/* ticks * 1e9 / tps, exact in 64 bits: tps < 2^32 keeps r * 1e9 small */
	ev->time_ns = s->ns_mul
			  ? e.time * s->ns_mul
			  : e.time / s->tps * 1000000000u + e.time % s->tps * 1000000000u / s->tps;
	ev->offset = r->offset;
	*out = ev;
	return TK_OK;
}

static void cpel_close(tk_source *src)
{
	cpel_source *s = (cpel_source *)src;
	tk_cpel_close(s->f);
	tk_hashmap_free(&s->class_by_code);
	free(s->codes);
	free(s->code_direct);
	free(s->track_direct);
	free(s->tracks);
	common_free(&s->c);
	free(s);
}

static const tk_source_ops cpel_ops = {cpel_next, cpel_close};

tk_status tk_cpel_source_open(const char *path, const tk_open_options *opt, tk_source **out,
			      tk_error *err)
{
	*out = NULL;
	cpel_source *s = calloc(1, sizeof *s);
	if (!s)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	s->c.base.ops = &cpel_ops;
	tk_hashmap_init(&s->class_by_code);
	tk_cpel_plan_datum("0x%08x", false, &s->unknown_plan);
	tk_status st = common_init(&s->c, path, TK_FORMAT_CPEL, err);
	if (st == TK_OK)
		st = tk_cpel_open(path, opt ? opt->log : NULL, opt ? opt->log_user : NULL, &s->f,
				  err);
	if (st != TK_OK) {
		cpel_close(&s->c.base);
		return st;
	}
	s->codes = calloc(s->f->n_evtdefs + MAX_CODE_CLASSES, sizeof *s->codes);
	s->code_direct = calloc(DIRECT_MAX, sizeof *s->code_direct);
	s->track_direct = calloc(DIRECT_MAX, sizeof *s->track_direct);
	s->tracks = calloc(s->f->n_trackdefs + 1, sizeof *s->tracks);
	if (!s->codes || !s->code_direct || !s->track_direct || !s->tracks) {
		cpel_close(&s->c.base);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	for (size_t i = 0; i < s->f->n_trackdefs; i++)
		if (s->f->trackdefs[i].track < DIRECT_MAX)
			s->track_direct[s->f->trackdefs[i].track] = (uint32_t)i + 1;
	if (s->f->n_event_sections) {
		s->clock.name = "cpel";
		s->clock.freq = s->f->event_sections[0].ticks_per_second;
		s->c.base.info.clocks = &s->clock;
		s->c.base.info.n_clocks = 1;
	}
	s->cur.f = s->f;
	/* the per-event parts that never change */
	s->c.values[1].cls = &u32_class;
	s->c.payload.v.list.items = s->c.values;
	s->c.payload.v.list.n = 4;
	tk_event *ev = &s->c.ev;
	ev->cpu = TK_CPU_NONE;
	ev->pid = ev->tid = TK_PID_NONE;
	ev->has_time = true;
	ev->payload = &s->c.payload;
	/* classes for the defined codes up front, so sinks see them early */
	for (size_t i = 0; i < s->f->n_evtdefs && i < MAX_CODE_CLASSES; i++)
		if (!cpel_code(s, s->f->evtdefs[i].code)) {
			cpel_close(&s->c.base);
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		}
	*out = &s->c.base;
	return TK_OK;
}

/* ---------------- elog ---------------- */

typedef struct elog_source {
	common c;
	tk_elog_file *f;
	uint32_t index;
	tk_clock_info clock;
} elog_source;

static tk_status elog_next(tk_source *src, const tk_event **out, tk_error *err)
{
	elog_source *s = (elog_source *)src;
	(void)err;
	if (s->index >= s->f->n_events)
		return TK_END;
	const tk_elog_event *e = &s->f->events[s->index++];
	tk_writer *w = s->c.text;
	w->pos = 0;
	tk_elog_event_text(w, s->f, e);
	if (w->error)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	const tk_elog_str *tn = &s->f->tracks[e->track];
	set_str(&s->c.values[0], tn->s, tn->len);
	set_str(&s->c.values[1], w->buf, w->pos);
	s->c.payload.cls = &elog_payload;
	s->c.payload.v.list.items = s->c.values;
	s->c.payload.v.list.n = 2;
	tk_event *ev = &s->c.ev;
	memset(ev, 0, sizeof *ev);
	ev->cls = s->c.base.info.event_classes[e->type];
	ev->cpu = TK_CPU_NONE;
	ev->pid = ev->tid = TK_PID_NONE;
	ev->has_time = true;
	double ns = e->time * 1e9;
	ev->time_ns = ns > 0 && ns < 1.8e19 ? (uint64_t)ns : 0;
	ev->time_raw = ev->time_ns;
	ev->payload = &s->c.payload;
	ev->offset = e->offset;
	*out = ev;
	return TK_OK;
}

static void elog_close(tk_source *src)
{
	elog_source *s = (elog_source *)src;
	tk_elog_close(s->f);
	common_free(&s->c);
	free(s);
}

static const tk_source_ops elog_ops = {elog_next, elog_close};

tk_status tk_elog_source_open(const char *path, const tk_open_options *opt, tk_source **out,
			      tk_error *err)
{
	(void)opt;
	*out = NULL;
	tk_elog_file *f;
	tk_status st = tk_elog_open(path, &f, err);
	if (st != TK_OK)
		return st;
	return tk_elog_source_wrap(f, path, TK_FORMAT_ELOG, out, err);
}

tk_status tk_elog_source_wrap(tk_elog_file *f, const char *path, tk_format fmt, tk_source **out,
			      tk_error *err)
{
	*out = NULL;
	elog_source *s = calloc(1, sizeof *s);
	if (!s) {
		tk_elog_close(f);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	s->c.base.ops = &elog_ops;
	s->f = f;
	tk_status st = common_init(&s->c, path, fmt, err);
	if (st != TK_OK) {
		elog_close(&s->c.base);
		return st;
	}
	s->clock.name = "elog";
	s->clock.freq = 1000000000u;
	s->c.base.info.clocks = &s->clock;
	s->c.base.info.n_clocks = 1;
	/* one class per type, named as c2cpel names events */
	for (uint32_t i = 0; i < s->f->n_types; i++) {
		const tk_elog_type *t = &s->f->types[i];
		size_t j = strcspn(t->format.s, " %(");
		if (!add_class(&s->c, i, t->format.s, j, t->format.s, &elog_payload)) {
			elog_close(&s->c.base);
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		}
	}
	*out = &s->c.base;
	return TK_OK;
}
