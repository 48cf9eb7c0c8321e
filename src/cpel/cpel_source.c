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

typedef struct cpel_source {
	common c;
	tk_cpel_file *f;
	size_t section;
	uint32_t index;
	tk_hashmap class_by_code; /* code -> class pointer */
	tk_event_class *unknown;
	tk_clock_info clock;
} cpel_source;

static tk_event_class *cpel_class(cpel_source *s, uint32_t code, const tk_cpel_evtdef *d)
{
	uint64_t *p = tk_hashmap_get(&s->class_by_code, code);
	if (p)
		return (tk_event_class *)(uintptr_t)*p;
	if (!d && s->c.base.info.n_event_classes >= MAX_CODE_CLASSES) {
		if (!s->unknown)
			s->unknown = add_class(&s->c, UINT32_MAX + (uint64_t)1, "unknown", 7, NULL,
					       &cpel_int_payload);
		return s->unknown;
	}
	tk_writer *w = s->c.text;
	w->pos = 0;
	tk_safe_format_u32(w, TK_FMT_VPPINFRA, d ? d->name_format : "%d", code);
	tk_event_class *k =
	    add_class(&s->c, code, w->buf, w->pos, d ? d->datum_format : "0x%08x",
		      d && d->datum_is_string ? &cpel_str_payload : &cpel_int_payload);
	if (k && !tk_hashmap_put(&s->class_by_code, code, (uint64_t)(uintptr_t)k))
		return NULL;
	return k;
}

static tk_status cpel_next(tk_source *src, const tk_event **out, tk_error *err)
{
	cpel_source *s = (cpel_source *)src;
	const tk_cpel_file *f = s->f;
	while (s->section < f->n_event_sections &&
	       s->index >= f->event_sections[s->section].count) {
		s->section++;
		s->index = 0;
	}
	if (s->section >= f->n_event_sections)
		return TK_END;
	const tk_cpel_events *es = &f->event_sections[s->section];
	uint32_t i = s->index++;
	if ((i & 0xffff) == 0 && f->input) /* keep resident memory flat */
		tk_input_release(f->input, es->offset + (uint64_t)i * TK_CPEL_EVENT_SIZE);
	tk_cpel_event e = tk_cpel_event_at(f, es, i);
	const tk_cpel_evtdef *d = tk_cpel_find_evtdef(f, e.code);
	tk_event_class *k = cpel_class(s, e.code, d);
	if (!k)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	tk_writer *w = s->c.text;
	w->pos = 0;
	const tk_cpel_trackdef *td = tk_cpel_find_trackdef(f, e.track);
	tk_safe_format_u32(w, TK_FMT_VPPINFRA, td ? td->format : "%d", e.track);
	size_t track_len = w->pos;
	tk_fmt_arg a = {.kind = TK_FMT_ARG_INT, .u = e.datum};
	const char *str = NULL;
	size_t str_len = 0;
	if (d && d->datum_is_string) {
		str = tk_cpel_string(es->strtab, e.datum, &str_len);
		if (!str)
			return tk_error_set(
			    err, TK_ERR_FORMAT, es->offset + (uint64_t)i * TK_CPEL_EVENT_SIZE + 16,
			    "EVENT section at offset 0x%llx: event %u: datum string offset 0x%x is "
			    "outside string table '%s' (%u bytes)",
			    (unsigned long long)es->section_offset, i, e.datum, es->strtab->name,
			    es->strtab->size);
		a.kind = TK_FMT_ARG_STRING;
		a.s = str;
		a.len = str_len;
	}
	const char *df = d ? d->datum_format : "0x%08x";
	tk_safe_format(w, TK_FMT_PRINTF, df, strlen(df), &a, 1);
	if (w->error)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	/* strings point into w->buf: set them after the last write */
	set_str(&s->c.values[0], w->buf, track_len);
	s->c.values[1].cls = &u32_class;
	s->c.values[1].v.u = e.code;
	if (str) {
		set_str(&s->c.values[2], str, str_len);
	} else {
		s->c.values[2].cls = &hex_class;
		s->c.values[2].v.u = e.datum;
	}
	set_str(&s->c.values[3], w->buf + track_len, w->pos - track_len);
	s->c.payload.cls = k->payload;
	s->c.payload.v.list.items = s->c.values;
	s->c.payload.v.list.n = 4;
	tk_event *ev = &s->c.ev;
	memset(ev, 0, sizeof *ev);
	ev->cls = k;
	ev->stream_instance = s->section;
	ev->cpu = TK_CPU_NONE;
	ev->pid = ev->tid = TK_PID_NONE;
	ev->has_time = true;
	ev->time_raw = e.time;
	ev->time_ns = (uint64_t)((unsigned __int128)e.time * 1000000000u / es->ticks_per_second);
	ev->payload = &s->c.payload;
	ev->offset = es->offset + (uint64_t)i * TK_CPEL_EVENT_SIZE;
	*out = ev;
	return TK_OK;
}

static void cpel_close(tk_source *src)
{
	cpel_source *s = (cpel_source *)src;
	tk_cpel_close(s->f);
	tk_hashmap_free(&s->class_by_code);
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
	tk_status st = common_init(&s->c, path, TK_FORMAT_CPEL, err);
	if (st == TK_OK)
		st = tk_cpel_open(path, opt ? opt->log : NULL, opt ? opt->log_user : NULL, &s->f,
				  err);
	if (st != TK_OK) {
		cpel_close(&s->c.base);
		return st;
	}
	if (s->f->n_event_sections) {
		s->clock.name = "cpel";
		s->clock.freq = s->f->event_sections[0].ticks_per_second;
		s->c.base.info.clocks = &s->clock;
		s->c.base.info.n_clocks = 1;
	}
	/* classes for the defined codes up front, so sinks see them early */
	for (size_t i = 0; i < s->f->n_evtdefs && i < MAX_CODE_CLASSES; i++)
		if (!cpel_class(s, s->f->evtdefs[i].code, &s->f->evtdefs[i])) {
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
