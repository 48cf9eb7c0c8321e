/* `tracekit report` for perf.data: samples per symbol (default), per image
 * or per address, one table per event, in the dcpiprof layout that
 * profile_report.c uses for DCPI (count, %, cum%, procedure, image).
 * Each sample weighs its period, as perf report counts (so the % column
 * matches `perf report --stdio --no-children --sort sym`); samples
 * without a PERIOD field weigh the attr's fixed period (perf record -c N),
 * else 1. Symbols and images come from the thread/map model
 * (threads_model.h), names demangled as perf shows them. */
#ifndef TK_OUTPUT_REPORT_PERF_H
#define TK_OUTPUT_REPORT_PERF_H

#include "analysis/perf_samples.h"
#include "analysis/profile_agg.h"
#include "base/writer.h"
#include "output/profile_report.h"

tk_status tk_perf_profile_report(const char *path, const tk_profile_report_options *opt,
				 tk_writer *out, tk_error *err);

/* "symbol"/"sym" (default, NULL), "image"/"dso", "address"/"addr". */
bool tk_perf_parse_sort(const char *sort, tk_profile_key *key);

/* Samples per symbol of one perf.data, per event (for diff). aggs[i]
 * holds events[i], samples[i] its number of samples; everything stays valid until
 * tk_perf_profile_free(). */
typedef struct tk_perf_profile {
	char **events;
	tk_profile_agg **aggs;
	uint64_t *samples;
	size_t n;
	void *priv;          /* DCPI: the thread model that owns the symbol names */
	tk_context *context; /* perf.data: the model context that owns them */
} tk_perf_profile;

/* by_period: weigh samples by their period (perf report), else count them.
 * unknown_per_address: addresses without a symbol get a row each, named as
 * perf report names them (tk_profile_agg_unknown_per_address); else one
 * "[unknown]" row per image (to compare with a DCPI profile, whose
 * addresses are image virtual addresses, not perf's map-relative ones). */
tk_status tk_perf_profile_load(const char *path, tk_profile_key key, const char *events,
			       bool by_period, bool unknown_per_address, tk_perf_profile *out,
			       tk_error *err);
/* As tk_perf_profile_load, keeping only the samples `f` matches (time
 * range, pid/tid/cpu sets, event globs); f NULL = all. */
tk_status tk_perf_profile_load_filtered(const char *path, tk_profile_key key,
					const struct tk_filter *f, bool by_period,
					bool unknown_per_address, tk_perf_profile *out,
					tk_error *err);
/* The same from a DCPI profile or database (counts, not periods), symbols
 * from each profile's path line (kallsyms for "[kernel.kallsyms]" and
 * "[module]" images). */
tk_status tk_dcpi_profile_load(const char *path, tk_profile_key key, const char *events,
			       tk_perf_profile *out, tk_error *err);
void tk_perf_profile_free(tk_perf_profile *p);

#endif
