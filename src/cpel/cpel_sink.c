/* Any model events -> CPEL (the tk_sink); see cpel/cpel_adapters.h.
 * Lives in output/ because the datum is the event's payload rendered as
 * text by the model printer. Events are kept (20 bytes each) until close:
 * the string table must come first in the file. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/bytes.h"
#include "base/hashmap.h"
#include "base/writer.h"
#include "cpel/cpel_adapters.h"
#include "cpel/cpel_writer.h"
#include "model/source_impl.h"
#include "model/value_text.h"

typedef struct cpel_sink {
	tk_sink base;
	char *path;
	bool little_endian;
	bool per_cpu;
	tk_cpel_writer *w;
	tk_writer *text;
	tk_hashmap code_by_class; /* class pointer -> code + 1 */
	tk_hashmap track_defined;
	uint32_t next_code, fmt_s;
	uint32_t fmt_track[3];
	const tk_event_class *last_cls;
	uint32_t last_code;
} cpel_sink;

static void sink_free(cpel_sink *s)
{
	tk_cpel_writer_free(s->w);
	tk_writer_abort(s->text);
	tk_hashmap_free(&s->code_by_class);
	tk_hashmap_free(&s->track_defined);
	free(s->path);
	free(s);
}

static tk_status nomem(tk_error *err)
{
	return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
}

static tk_status sink_write(tk_sink *sink, const tk_event *ev, tk_error *err)
{
	cpel_sink *s = (cpel_sink *)sink;
	uint32_t code;
	if (ev->cls == s->last_cls && s->last_cls) {
		code = s->last_code;
	} else {
		uint64_t *p = tk_hashmap_get(&s->code_by_class, (uint64_t)(uintptr_t)ev->cls);
		if (p) {
			code = (uint32_t)(*p - 1);
		} else {
			const char *name = ev->cls && ev->cls->name ? ev->cls->name : "event";
			uint32_t off;
			code = s->next_code++;
			if (!tk_cpel_writer_string(s->w, name, strlen(name), &off) ||
			    !tk_cpel_writer_event_def(s->w, code, off, s->fmt_s) ||
			    !tk_hashmap_put(&s->code_by_class, (uint64_t)(uintptr_t)ev->cls,
					    (uint64_t)code + 1))
				return nomem(err);
		}
		s->last_cls = ev->cls;
		s->last_code = code;
	}
	/* track: the thread (or the CPU with --cpel-tracks cpu), else the stream */
	unsigned kind;
	uint32_t track;
	if (!s->per_cpu && ev->tid != TK_PID_NONE) {
		kind = 0;
		track = (uint32_t)ev->tid;
	} else if (ev->cpu != TK_CPU_NONE) {
		kind = 1;
		track = (uint32_t)ev->cpu;
	} else {
		kind = 2;
		track = (uint32_t)ev->stream_instance;
	}
	/* tracks of different kinds would share numbers: keep kinds apart */
	uint64_t key = (uint64_t)kind << 32 | track;
	if (!tk_hashmap_get(&s->track_defined, key)) {
		if (!tk_hashmap_put(&s->track_defined, key, 1) ||
		    !tk_cpel_writer_track_def(s->w, track, s->fmt_track[kind]))
			return nomem(err);
	}
	tk_writer *t = s->text;
	t->pos = 0;
	if (ev->payload)
		tk_value_write_text(t, ev->payload);
	uint32_t datum;
	if (t->error || !tk_cpel_writer_string(s->w, t->buf ? t->buf : "", t->pos, &datum) ||
	    !tk_cpel_writer_event(s->w, ev->has_time ? ev->time_ns : 0, track, code, datum))
		return nomem(err);
	return TK_OK;
}

static tk_status sink_close(tk_sink *sink, tk_error *err)
{
	cpel_sink *s = (cpel_sink *)sink;
	tk_status st = tk_cpel_writer_commit(s->w, s->path, s->little_endian, (uint32_t)time(NULL),
					     1000000000u, err);
	sink_free(s);
	return st;
}

static void sink_abort(tk_sink *sink)
{
	sink_free((cpel_sink *)sink);
}

static const tk_sink_ops cpel_sink_ops = {sink_write, sink_close, sink_abort};

tk_status tk_cpel_sink_open(const char *path, const tk_trace_info *info, const tk_sink_options *opt,
			    tk_sink **out, tk_error *err)
{
	(void)info;
	*out = NULL;
	cpel_sink *s = calloc(1, sizeof *s);
	if (!s)
		return nomem(err);
	s->base.ops = &cpel_sink_ops;
	tk_hashmap_init(&s->code_by_class);
	tk_hashmap_init(&s->track_defined);
	const char *bo = opt ? opt->byte_order : NULL;
	if (bo && strcmp(bo, "little") && strcmp(bo, "big") && strcmp(bo, "native")) {
		sink_free(s);
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
				    "unknown byte order '%s' (big, little, native)", bo);
	}
	s->little_endian =
	    bo && (strcmp(bo, "little") == 0 || (strcmp(bo, "native") == 0 && tk_host_is_le()));
	const char *tr = opt ? opt->tracks : NULL;
	if (tr && strcmp(tr, "cpu") && strcmp(tr, "thread")) {
		sink_free(s);
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
				    "unknown CPEL track kind '%s' (thread, cpu)", tr);
	}
	s->per_cpu = tr && strcmp(tr, "cpu") == 0;
	s->path = strdup(path);
	s->w = tk_cpel_writer_new();
	if (!s->path || !s->w || tk_writer_open_memory(&s->text, err) != TK_OK ||
	    !tk_cpel_writer_string(s->w, "%s", 2, &s->fmt_s) ||
	    !tk_cpel_writer_string(s->w, "tid %d", 6, &s->fmt_track[0]) ||
	    !tk_cpel_writer_string(s->w, "cpu %d", 6, &s->fmt_track[1]) ||
	    !tk_cpel_writer_string(s->w, "stream %d", 9, &s->fmt_track[2])) {
		sink_free(s);
		return nomem(err);
	}
	*out = &s->base;
	return TK_OK;
}
