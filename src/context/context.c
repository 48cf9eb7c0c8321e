/* The model context's lifecycle, feeding and source attachment (context.h). */
#include <stdlib.h>
#include <string.h>

#include "context/context_internal.h"
#include "model/source_impl.h"

/* Spans need the thread table (per-thread span state) and the per-cpu
 * running thread; symbols need the threads' address spaces. */
static unsigned effective(unsigned flags)
{
	if (flags & (TK_CTX_SYMBOLS | TK_CTX_SPANS))
		flags |= TK_CTX_THREADS;
	return flags;
}

tk_status tk_context_new(const tk_context_options *opt, tk_context **out, tk_error *err)
{
	tk_context *c = calloc(1, sizeof *c);
	if (!c)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	if (opt) {
		c->opt = *opt;
		if (opt->symbols) {
			c->symopt = *opt->symbols;
			c->have_symopt = true;
		}
	}
	c->opt.symbols = NULL; /* the copy above is ours */
	if (!c->opt.max_threads)
		c->opt.max_threads = (size_t)1 << 20;
	if (!c->opt.max_open_spans)
		c->opt.max_open_spans = (size_t)1 << 20;
	c->flags = effective(c->opt.flags);
	tk_arena_init(&c->strings, 16 * 1024);
	tk_hashmap_init(&c->by_tid);
	tk_hashmap_init(&c->class_by_ptr);
	tk_hashmap_init(&c->track_by_hash);
	tk_hashmap_init(&c->state_open);
	tk_hashmap_init(&c->sysname_by_id);
	*out = c;
	return TK_OK;
}

void tk_context_free(tk_context *c)
{
	if (!c)
		return;
	ctx_perf_free(c);
	ctx_threads_free(c);
	ctx_classes_free(c);
	ctx_sched_free(c);
	ctx_tracks_free(c);
	ctx_umaps_free(c);
	ctx_spanq_free(c);
	tk_hashmap_free(&c->sysname_by_id);
	tk_arena_free(&c->strings);
	free(c);
}

void tk_context_want(tk_context *c, unsigned flags)
{
	if (c)
		c->flags = effective(c->flags | flags);
}

unsigned tk_context_flags(const tk_context *c)
{
	return c ? c->flags : 0;
}

/* LTTng-UST per-process buffers name their process in the trace
 * environment (vpid, procname): its leader thread gets the name. */
static void ctx_env_process(tk_context *c, const tk_trace_info *info)
{
	int64_t vpid = -1;
	const char *procname = NULL;
	for (size_t i = 0; i < info->n_env; i++) {
		const tk_env_entry *e = &info->env[i];
		if (!e->key)
			continue;
		if (e->is_int && strcmp(e->key, "vpid") == 0)
			vpid = e->i;
		else if (!e->is_int && e->str && strcmp(e->key, "procname") == 0)
			procname = e->str;
	}
	if (vpid <= 0 || vpid > INT32_MAX || !procname || !(c->flags & TK_CTX_THREADS))
		return;
	ctx_thread *th = ctx_thread_findnew(c, (int32_t)vpid, (int32_t)vpid, CTX_TIME_UNSET);
	if (th)
		ctx_thread_set_comm(th, procname, strlen(procname));
}

static tk_status observe_event(void *user, const tk_event *ev, tk_error *err)
{
	return tk_context_feed_event(user, ev, err);
}

static tk_status observe_native(void *user, const void *file, const void *record, tk_error *err)
{
	tk_context *c = user;
	/* whoever held the hook before (a session's observers) first */
	if (c->chained_native) {
		tk_status st = c->chained_native(c->chained_user, file, record, err);
		if (st != TK_OK)
			return st;
	}
	return tk_context_feed_perf(c, file, record, err);
}

void tk_source_set_context(tk_source *src, tk_context *c)
{
	if (!src)
		return;
	if (src->native == observe_native) { /* detach a previous context */
		tk_context *old = src->native_user;
		src->native = old->chained_native;
		src->native_user = old->chained_user;
	}
	memset(&src->obs, 0, sizeof src->obs);
	if (!c)
		return;
	src->obs.on_event = observe_event;
	/* only perf.data has side-band records the model drops */
	if (src->info.format == TK_FORMAT_PERF) {
		c->chained_native = src->native;
		c->chained_user = src->native_user;
		src->native = observe_native;
		src->native_user = c;
	}
	src->obs.user = c;
	src->obs.ctx = c;
	ctx_env_process(c, &src->info);
}

tk_context *tk_context_of(const tk_event *ev)
{
	return ev ? ev->model_ctx : NULL;
}

tk_status tk_context_feed_event(tk_context *c, const tk_event *ev, tk_error *err)
{
	if (!c || !ev || !(c->flags & (TK_CTX_THREADS | TK_CTX_COUNTERS)))
		return TK_OK;
	c->stats.events++;
	if (ev->has_time && ev->time_ns > c->last_time)
		c->last_time = ev->time_ns;
	const ctx_class *k = ctx_class_of(c, ev);
	if (!k) {
		c->stats.oom = true;
		return tk_error_set(err, TK_ERR_NOMEM, ev->offset, "model context: out of memory");
	}
	tk_status st = TK_OK;
	if (c->flags & TK_CTX_THREADS)
		st = ctx_threads_event(c, k, ev, err);
	if (st == TK_OK && (c->flags & (TK_CTX_SPAN_SYSCALL | TK_CTX_SPAN_CALL)))
		ctx_pairs_event(c, k, ev);
	if (st == TK_OK && k->role == CTX_ROLE_BIN_INFO && (c->flags & TK_CTX_SYMBOLS))
		ctx_umaps_event(c, k, ev);
	if (st == TK_OK && (k->f_track != CTX_NO_FIELD))
		st = ctx_state_event(c, k, ev, err);
	return st;
}

tk_status tk_context_feed_perf(tk_context *c, const tk_perf_file *f, const tk_perf_record *rec,
			       tk_error *err)
{
	if (!c || !rec || !(c->flags & TK_CTX_THREADS))
		return TK_OK;
	c->stats.perf_records++;
	if (rec->has_time && rec->sid.time > c->last_time)
		c->last_time = rec->sid.time;
	return ctx_perf_feed(c, f, rec, err);
}

void tk_context_finish(tk_context *c, uint64_t end_ns)
{
	if (!c)
		return;
	if (!end_ns)
		end_ns = c->last_time;
	ctx_sched_finish(c, end_ns);
	ctx_pairs_finish(c, end_ns);
	ctx_state_finish(c, end_ns);
}

void tk_context_get_stats(const tk_context *c, tk_context_stats *out)
{
	memset(out, 0, sizeof *out);
	if (!c)
		return;
	*out = c->stats;
	out->threads = c->n_threads;
	if (c->perf && c->perf->oom)
		out->oom = true;
}
