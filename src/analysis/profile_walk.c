/* The stack-profile sample walk (see profile_walk.h). */
#include <stdlib.h>
#include <string.h>

#include "analysis/perf_unwind.h"
#include "analysis/profile_walk.h"

typedef struct walk {
	tk_profile_sample_fn fn;
	void *user;
	tk_callchain *chain;
} walk;

static tk_status on_sample(void *user, tk_threads *th, const tk_perf_record *rec, const char *event,
			   const tk_perf_sample *s, tk_error *err)
{
	walk *w = user;
	tk_thread *t = tk_perf_sample_thread(th, s);
	w->chain->n = 0;
	if (s->sample_type & TK_PERF_SAMPLE_CALLCHAIN)
		tk_callchain_resolve(th, t, s, w->chain);
	tk_callchain_append_unwound(th, t, rec->attr, s, w->chain);
	tk_profile_sample ps = {
	    .threads = th,
	    .thread = t,
	    .rec = rec,
	    .event = event,
	    .s = s,
	    .weight = tk_perf_sample_weight(rec->attr, s),
	    .chain = w->chain,
	};
	return w->fn(w->user, &ps, err);
}

tk_status tk_profile_walk(const char *path, const tk_render_options *opt, tk_profile_sample_fn fn,
			  void *user, tk_error *err)
{
	walk w = {fn, user, malloc(sizeof(tk_callchain))};
	if (!w.chain)
		return tk_error_set(err, TK_ERR_NOMEM, 0, "out of memory");
	tk_filter filter = tk_render_filter(opt);
	tk_perf_samples_options so = {.raw_order = opt->raw_order,
				      .log = opt->log,
				      .log_user = opt->log_user,
				      .filter = &filter};
	tk_status st = tk_perf_samples_run(path, &so, on_sample, &w, err);
	free(w.chain);
	return st;
}

void tk_profile_sample_leaf(const tk_profile_sample *ps, tk_addr_loc *loc)
{
	memset(loc, 0, sizeof *loc);
	if (ps->s->sample_type & TK_PERF_SAMPLE_IP)
		tk_threads_resolve(ps->threads, ps->thread, ps->rec->misc & 7u, ps->s->ip, loc);
}
