/* tk_view_write(): read the inputs merged by time into the builder, then
 * write the page atomically. See include/tracekit/view.h. */
#include <stdlib.h>
#include <string.h>

#include "tracekit/session.h"
#include "view/view_internal.h"

/* The next model event of one input's session (pulled: the inputs are
 * merged by time here, one event at a time). */
static tk_status next_event(tk_session *s, const tk_event **ev, tk_error *err)
{
	const tk_session_item *it;
	tk_status st = tk_session_next(s, &it, err);
	if (st == TK_OK)
		*ev = it->event;
	return st;
}

static tk_status read_all(view_builder *b, tk_session **src, tk_context **ctx, size_t n,
			  tk_error *err)
{
	const tk_event **pending = calloc(n ? n : 1, sizeof *pending);
	bool *done = calloc(n ? n : 1, sizeof *done);
	tk_status st = TK_OK;
	if (!pending || !done) {
		st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		tk_error_set_file(err, b->inputs[i]);
		st = next_event(src[i], &pending[i], err);
		if (st == TK_END) {
			done[i] = true;
			st = TK_OK;
		}
		if (st != TK_OK)
			goto out;
	}
	for (;;) {
		/* the earliest pending event; events without a time first */
		size_t best = n;
		for (size_t i = 0; i < n; i++) {
			if (done[i])
				continue;
			const tk_event *e = pending[i];
			if (best == n) {
				best = i;
				continue;
			}
			const tk_event *f = pending[best];
			if ((f->has_time && !e->has_time) ||
			    (f->has_time && e->has_time && e->time_ns < f->time_ns))
				best = i;
		}
		if (best == n)
			break;
		st = view_add_event(b, (uint32_t)best, ctx[best], pending[best], err);
		if (st == TK_OK)
			st = view_add_spans(b, (uint32_t)best, ctx[best], err);
		if (st != TK_OK)
			goto out;
		tk_error_set_file(err, b->inputs[best]);
		st = next_event(src[best], &pending[best], err);
		if (st == TK_END) {
			done[best] = true;
			st = TK_OK;
		}
		if (st != TK_OK)
			goto out;
	}
	/* spans still open end with the trace */
	for (size_t i = 0; i < n; i++) {
		tk_context_finish(ctx[i], b->t1);
		st = view_add_spans(b, (uint32_t)i, ctx[i], err);
		if (st != TK_OK)
			goto out;
	}
out:
	free(pending);
	free(done);
	return st;
}

tk_status tk_view_write(const char *const *inputs, size_t n_inputs, const char *out,
			const tk_view_options *opt, tk_error *err)
{
	view_builder b;
	tk_session **src = calloc(n_inputs ? n_inputs : 1, sizeof *src);
	tk_context **ctx = calloc(n_inputs ? n_inputs : 1, sizeof *ctx);
	tk_writer *w = NULL;
	tk_status st = TK_OK;
	if (!view_builder_init(&b) || !src || !ctx) {
		st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		goto out;
	}
	b.inputs = inputs;
	b.n_inputs = n_inputs;
	b.input_formats = calloc(n_inputs ? n_inputs : 1, sizeof *b.input_formats);
	if (!b.input_formats) {
		st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n_inputs; i++) {
		tk_open_options oo = {.all_records = opt && opt->all_records,
				      .log = opt ? opt->log : NULL,
				      .log_user = opt ? opt->log_user : NULL};
		tk_error_clear(err);
		tk_format fmt = tk_detect_format(inputs[i], err);
		if (fmt == TK_FORMAT_UNKNOWN) {
			tk_error_set_file(err, inputs[i]);
			st = err && err->status != TK_OK ? err->status : TK_ERR_FORMAT;
			goto out;
		}
		oo.format = fmt;
		b.input_formats[i] = strdup(tk_format_name(fmt));
		st = tk_session_open(inputs[i], &oo, TK_SESSION_MODEL, &src[i], err);
		if (st != TK_OK) {
			tk_error_set_file(err, inputs[i]);
			goto out;
		}
		/* threads, symbols, spans and counters come from the model
		 * context, derived once as the source is read */
		tk_context_options co = {.flags = TK_CTX_ALL,
					 .log = opt ? opt->log : NULL,
					 .log_user = opt ? opt->log_user : NULL};
		st = tk_context_new(&co, &ctx[i], err);
		if (st != TK_OK)
			goto out;
		tk_source_set_context(tk_session_source(src[i]), ctx[i]);
	}
	st = read_all(&b, src, ctx, n_inputs, err);
	if (st != TK_OK)
		goto out;
	view_name_tracks(&b, ctx);
	tk_error_clear(err);
	st = tk_writer_open_atomic(out, &w, err);
	if (st != TK_OK)
		goto out;
	st = view_write_html(&b, w, err);
	if (st == TK_OK) {
		st = tk_writer_commit(w, err);
		w = NULL;
	}
out:
	tk_writer_abort(w);
	for (size_t i = 0; src && i < n_inputs; i++)
		tk_session_close(src[i]);
	for (size_t i = 0; ctx && i < n_inputs; i++)
		tk_context_free(ctx[i]);
	free(src);
	free(ctx);
	view_builder_free(&b);
	return st;
}
