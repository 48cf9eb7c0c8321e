/* Samples for the profile consumers through one session; see perf_samples.h. */
#include "analysis/perf_samples.h"
#include "context/ctx_perf_model.h"

#include <stdlib.h>
#include <string.h>

typedef struct samples_run {
	const tk_perf_samples_options *opt;
	tk_context *ctx;
	tk_perf_sample_fn fn;
	void *user;
	/* events' printed names by attr index, made at their first sample:
	 * the attr's own name (lives as long as the file) or one with perf's
	 * modifiers in buf */
	struct event_name {
		const char *name; /* NULL: not made yet, or in buf (which moves) */
		bool in_buf;
		char buf[160];
	} * names;
	size_t n_names;
} samples_run;

static const char *event_name(samples_run *r, tk_session *ses, const tk_perf_attr *a)
{
	if (a->index >= r->n_names) {
		size_t n = a->index + 8;
		struct event_name *nn = realloc(r->names, n * sizeof *nn);
		if (!nn)
			return NULL;
		memset(nn + r->n_names, 0, (n - r->n_names) * sizeof *nn);
		r->names = nn;
		r->n_names = n;
	}
	struct event_name *e = &r->names[a->index];
	if (!e->name && !e->in_buf) {
		const char *n = tk_perf_event_name(tk_session_perf(ses), a, e->buf, sizeof e->buf);
		e->in_buf = n == e->buf;
		e->name = e->in_buf ? NULL : n;
	}
	return e->in_buf ? e->buf : e->name;
}

tk_status tk_perf_samples_context(tk_context **out, tk_error *err)
{
	tk_context_options co = {.flags = TK_CTX_THREADS | TK_CTX_SYMBOLS};
	return tk_context_new(&co, out, err);
}

static tk_status on_sample(tk_session *ses, const tk_perf_record *rec, void *user, tk_error *err)
{
	samples_run *r = user;
	const tk_filter *filter = r->opt->filter;
	if (!rec->attr ||
	    (filter && filter->events && !tk_filter_name_matches(filter->events, rec->attr->name)))
		return TK_OK;
	tk_perf_sample s;
	tk_status st = tk_perf_parse_sample(tk_session_perf(ses), rec, &s, err);
	if (st != TK_OK)
		return st;
	if (filter && !tk_perf_sample_matches(filter, &s))
		return TK_OK;
	/* the context saw the record first (an observer): its model exists */
	tk_threads *th = tk_context_perf_model(r->ctx);
	if (!th)
		return tk_error_set(err, TK_ERR_NOMEM, rec->offset, "model context: out of memory");
	const char *event = event_name(r, ses, rec->attr);
	if (!event)
		return tk_error_set(err, TK_ERR_NOMEM, rec->offset, "out of memory");
	return r->fn(r->user, th, rec, event, &s, err);
}

tk_status tk_perf_samples_run(const char *path, const tk_perf_samples_options *opt,
			      tk_perf_sample_fn fn, void *user, tk_error *err)
{
	tk_open_options oo = {.format = TK_FORMAT_PERF,
			      .raw_order = opt->raw_order,
			      .log = opt->log,
			      .log_user = opt->log_user};
	tk_context *own = NULL, *ctx = opt->context;
	tk_status st;
	if (!ctx && (st = tk_perf_samples_context(&own, err)) != TK_OK)
		return st;
	if (!ctx)
		ctx = own;
	tk_session *ses;
	st = tk_session_open(path, &oo, TK_SESSION_NATIVE, &ses, err);
	if (st == TK_OK) {
		samples_run r = {opt, ctx, fn, user, NULL, 0};
		tk_session_tool tool = {.perf_sample = on_sample};
		st = tk_session_add_observer(ses, tk_context_observe, ctx, err);
		if (st == TK_OK)
			st = tk_session_run(ses, &tool, &r, err);
		tk_session_close(ses);
		free(r.names);
	}
	tk_context_free(own);
	return st;
}

uint64_t tk_perf_sample_weight(const tk_perf_attr *attr, const tk_perf_sample *s)
{
	if (s->sample_type & TK_PERF_SAMPLE_PERIOD)
		return s->period;
	if (!tk_perf_attr_flag(attr, TK_PERF_ATTR_FREQ) && attr->sample_period)
		return attr->sample_period;
	return 1;
}

/* The filter on a decoded sample; a field the sample lacks never matches
 * a filter on it (as perf script's --pid/--cpu/--time). */
bool tk_perf_sample_matches(const tk_filter *f, const tk_perf_sample *s)
{
	bool has_tid = s->sample_type & TK_PERF_SAMPLE_TID;
	bool has_time = s->sample_type & TK_PERF_SAMPLE_TIME;
	bool has_cpu = s->sample_type & TK_PERF_SAMPLE_CPU;
	if ((f->has_begin || f->has_end) && !has_time)
		return false;
	if (f->has_begin && s->time < f->begin_ns)
		return false;
	if (f->has_end && s->time > f->end_ns)
		return false;
	if (!tk_id_set_any(&f->pid) && (!has_tid || !tk_id_set_has(&f->pid, s->pid)))
		return false;
	if (!tk_id_set_any(&f->tid) && (!has_tid || !tk_id_set_has(&f->tid, s->tid)))
		return false;
	if (!tk_id_set_any(&f->cpu) && (!has_cpu || !tk_id_set_has(&f->cpu, s->cpu)))
		return false;
	return true;
}
