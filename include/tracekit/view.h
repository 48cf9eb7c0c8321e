/* tracekit view: one self-contained HTML timeline of any inputs.
 *
 * Not meant to be included alone: include <tracekit/tracekit.h>.
 *
 * tk_view_write() reads every input (format detected from the content,
 * several inputs merged by time) and writes one HTML file holding the
 * viewer (its HTML/CSS/JS are embedded into the library at build time) and
 * the data: binary columns in base64, pre-aggregated into levels of detail
 * per track. The output is written to a temporary beside `out` and renamed
 * into place only when complete, so an input that cannot be read leaves no
 * page behind. Not thread-safe; no global state. */
#ifndef TRACEKIT_VIEW_H
#define TRACEKIT_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"
#include "status.h"

typedef struct tk_view_options {
	bool all_records; /* perf: also comm/exit/fork/mmap records as events */
	tk_log_fn log;    /* warnings; NULL: dropped */
	void *log_user;
} tk_view_options;

tk_status tk_view_write(const char *const *inputs, size_t n_inputs, const char *out,
			const tk_view_options *opt, tk_error *err);

#endif
