/* The inputs that carry a profile, whatever their format: perf.data
 * (samples weighed by period, symbols from the thread/map model) and DCPI
 * profiles or databases (sample counts, symbols from each image). One
 * table, so report and diff never ask which format they hold. */
#ifndef TK_OUTPUT_PROFILE_INPUTS_H
#define TK_OUTPUT_PROFILE_INPUTS_H

#include "output/report_perf.h"

/* Whether inputs of fmt carry a profile. */
bool tk_profile_readable(tk_format fmt);
/* Whether fmt's profiles hold only sample counts (DCPI), not periods. */
bool tk_profile_counts_only(tk_format fmt);

/* The profile of path (of format fmt) per event, keyed by key; events:
 * --event globs or NULL. by_counts: weigh every sample 1 and keep one
 * "[unknown]" row per image (to compare with a counts-only profile), else
 * perf's periods and unknown addresses per address. TK_ERR_UNSUPPORTED
 * when fmt carries no profile. */
tk_status tk_profile_load_any(const char *path, tk_format fmt, tk_profile_key key,
			      const char *events, bool by_counts, tk_perf_profile *out,
			      tk_error *err);
/* `tracekit report`'s profile tables for path. */
tk_status tk_profile_report_any(const char *path, tk_format fmt,
				const tk_profile_report_options *opt, tk_writer *out,
				tk_error *err);

#endif
