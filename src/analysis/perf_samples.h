/* The samples of a perf.data file as the profile consumers (report, folded
 * stacks, pprof, speedscope) take them, through one session whose shared
 * model context (tk_context, observing the session) keeps the thread/map
 * model from the side band; a sample is kept when it has an attr,
 * its event matches the filter's globs, it decodes, and its time, pid, tid
 * and cpu pass the filter (tk_perf_sample_matches, as perf report applies
 * --time/--pid/--tid/--cpu). */
#ifndef TK_ANALYSIS_PERF_SAMPLES_H
#define TK_ANALYSIS_PERF_SAMPLES_H

#include "context/threads_model.h"
#include "model/filter.h"
#include "tracekit/tracekit.h"

/* One kept sample: the context's perf model, its record, its event's name
 * as perf prints it (tk_perf_event_name) and its decoded fields. */
typedef tk_status (*tk_perf_sample_fn)(void *user, tk_threads *th, const tk_perf_record *rec,
				       const char *event, const tk_perf_sample *s, tk_error *err);

/* The thread of a sample's pid/tid (-1/-1 without PERF_SAMPLE_TID), created
 * when new: the one lookup every profile consumer makes. */
static inline tk_thread *tk_perf_sample_thread(tk_threads *th, const tk_perf_sample *s)
{
	bool has_tid = (s->sample_type & TK_PERF_SAMPLE_TID) != 0;
	return tk_threads_findnew(th, has_tid ? (int32_t)s->pid : -1,
				  has_tid ? (int32_t)s->tid : -1);
}

typedef struct tk_perf_samples_options {
	bool raw_order;
	tk_log_fn log;
	void *log_user;
	const tk_filter *filter; /* NULL = every sample */
	/* the model context the session feeds (tk_perf_samples_context):
	 * caller-owned, so what it names outlives the run; NULL: one for the
	 * run only */
	tk_context *context;
} tk_perf_samples_options;

/* A context deriving what the profile consumers need (threads, maps and
 * symbols). */
tk_status tk_perf_samples_context(tk_context **out, tk_error *err);

/* Runs a native session over path, calling fn for each kept sample. The
 * callback's TK_END stops early (TK_OK is returned). */
tk_status tk_perf_samples_run(const char *path, const tk_perf_samples_options *opt,
			      tk_perf_sample_fn fn, void *user, tk_error *err);

/* perf's sample->period: the sample's PERIOD field, else the attr's fixed
 * period (perf record -c N writes no PERIOD: each sample stands for N
 * events), else 1. */
uint64_t tk_perf_sample_weight(const tk_perf_attr *attr, const tk_perf_sample *s);

/* f's time range and pid/tid/cpu sets on a decoded sample (not its event
 * globs); a field the sample lacks never matches a filter on it (as perf
 * script's --pid/--cpu/--time). */
bool tk_perf_sample_matches(const tk_filter *f, const tk_perf_sample *s);

#endif
