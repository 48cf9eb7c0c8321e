/* tk_source adapter: CTF events as model events. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf/ctf_ids.h"
#include "ctf/ctf_reader.h"
#include "model/source_impl.h"

typedef struct ctf_source {
	tk_source base; /* first member */
	ctf_reader *reader;
	tk_event ev;
	const tk_event_class **classes;
	tk_log_fn log;
	void *log_user;
	ctf_ids ids; /* LTTng tid/pid contexts -> ev->tid, ev->pid */
} ctf_source;

static void source_discard(void *user, const ctf_discard *d)
{
	ctf_source *s = user;
	if (!s->log)
		return;
	char msg[512];
	ctf_discard_text(d, msg, sizeof msg);
	s->log(s->log_user, 0, msg);
}

static tk_status source_next(tk_source *src, const tk_event **out, tk_error *err)
{
	ctf_source *s = (ctf_source *)src;
	const ctf_event_out *e;
	tk_status st = ctf_reader_next(s->reader, &e, err);
	if (st != TK_OK)
		return st;
	tk_event *ev = &s->ev;
	memset(ev, 0, sizeof *ev);
	ctf_event_header(e, ev);
	ev->packet_context = e->packet_context;
	ev->header = e->header;
	ev->stream_context = e->common_context;
	ev->context = e->context;
	ev->payload = e->payload;
	if (ev->stream_context || ev->context)
		ctf_ids_fill(&s->ids, ev->stream_context, ev->context, &ev->pid, &ev->tid);
	*out = ev;
	return TK_OK;
}

static void source_close(tk_source *src)
{
	ctf_source *s = (ctf_source *)src;
	ctf_reader_close(s->reader);
	free(s->classes);
	ctf_ids_free(&s->ids);
	free(s);
}

static const tk_source_ops ctf_source_ops = {
    .next = source_next,
    .close = source_close,
};

tk_status tk_ctf_source_open(const char *path, const tk_open_options *opt, tk_source **out,
			     tk_error *err)
{
	*out = NULL;
	ctf_source *s = calloc(1, sizeof *s);
	if (!s)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	s->log = opt ? opt->log : NULL;
	s->log_user = opt ? opt->log_user : NULL;
	ctf_ids_init(&s->ids);
	tk_status st = ctf_reader_open(path, s->log, s->log_user, &s->reader, err);
	if (st != TK_OK) {
		free(s);
		return st;
	}
	s->reader->on_discard = source_discard;
	s->reader->discard_user = s;
	s->base.ops = &ctf_source_ops;
	/* the first trace's classes, with the event classes of all traces */
	const ctf_trace_class *tc0 = s->reader->traces[0]->tc;
	s->base.info = tc0->info;
	s->base.info.name = path;
	size_t n = 0;
	for (size_t i = 0; i < s->reader->n_traces; i++)
		n += s->reader->traces[i]->tc->info.n_event_classes;
	s->classes = calloc(n + 1, sizeof *s->classes);
	if (!s->classes) {
		source_close(&s->base);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	size_t k = 0;
	for (size_t i = 0; i < s->reader->n_traces; i++) {
		const tk_trace_info *ti = &s->reader->traces[i]->tc->info;
		for (size_t j = 0; j < ti->n_event_classes; j++)
			s->classes[k++] = ti->event_classes[j];
	}
	s->base.info.event_classes = s->classes;
	s->base.info.n_event_classes = k;
	*out = &s->base;
	return TK_OK;
}

tk_status tk_ctf_source_seek(tk_source *src, uint64_t begin_ns, tk_error *err)
{
	if (!src || src->ops != &ctf_source_ops)
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET, "seek: not a CTF source");
	ctf_source *s = (ctf_source *)src;
	if (s->reader->started)
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
				    "seek: reading has already started");
	s->reader->has_begin = true;
	s->reader->begin_ns = begin_ns > INT64_MAX ? INT64_MAX : (int64_t)begin_ns;
	return TK_OK;
}
