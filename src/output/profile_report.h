/* `tracekit report` for DCPI inputs (a profile or a database): samples per
 * symbol (default), per image or per address, with count, % and cumulative
 * % in the manner of dcpiprof; one table per event.
 * Callers reach it through profile_inputs.h (tk_profile_report_any). */
#ifndef TK_OUTPUT_PROFILE_REPORT_H
#define TK_OUTPUT_PROFILE_REPORT_H

#include "base/writer.h"
#include "model/filter.h"
#include "tracekit/tracekit.h"

typedef struct tk_profile_report_options {
	const char *sort;   /* "symbol"/"sym" (default), "image"/"dso", "address"/"addr" */
	uint64_t top;       /* rows per table; 0 = all */
	const char *events; /* --event globs (comma separated) or NULL */
	const struct tk_filter *filter; /* perf.data: time, pid, tid, cpu too; NULL = events */
	tk_symcache *symbols;           /* NULL: a private cache with default options */
	tk_log_fn log;                  /* warnings (images without symbols) */
	void *log_user;
} tk_profile_report_options;

tk_status tk_profile_report_dcpi(const char *path, const tk_profile_report_options *opt,
				 tk_writer *out, tk_error *err);

#endif
