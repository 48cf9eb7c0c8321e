/* The one sample walk of the stack-profile exports (folded stacks, pprof,
 * and what is built on them: speedscope, the flame graph SVG): the kept
 * samples of a perf.data file (perf_samples.h: --begin/--end/--time,
 * --pid/--tid/--cpu, --event as report applies them) with their thread,
 * weight and call chain (the recorded chain resolved, then the DWARF-
 * unwound user frames with their inline frames), from the shared model
 * context. */
#ifndef TK_ANALYSIS_PROFILE_WALK_H
#define TK_ANALYSIS_PROFILE_WALK_H

#include "analysis/perf_samples.h"
#include "context/perf_callchain.h"
#include "model/render.h"

typedef struct tk_profile_sample {
	tk_threads *threads; /* the context's perf model */
	tk_thread *thread;
	const tk_perf_record *rec;
	const char *event; /* its event's name as perf prints it ("cycles:HG") */
	const tk_perf_sample *s;
	uint64_t weight;           /* perf's period (tk_perf_sample_weight) */
	const tk_callchain *chain; /* callee first; empty when none */
} tk_profile_sample;

typedef tk_status (*tk_profile_sample_fn)(void *user, const tk_profile_sample *ps, tk_error *err);

/* Calls fn for each kept sample of path (opt: filters, order, log). */
tk_status tk_profile_walk(const char *path, const tk_render_options *opt, tk_profile_sample_fn fn,
			  void *user, tk_error *err);

/* The sample's own ip resolved with its cpumode (report's leaf); a zeroed
 * location without PERF_SAMPLE_IP. */
void tk_profile_sample_leaf(const tk_profile_sample *ps, tk_addr_loc *loc);

#endif
