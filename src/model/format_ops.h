/* One entry of the format registry: how a format is detected, read (the
 * model adapter), copied losslessly and written. The type lives below the
 * formats so each format fills its own entry (src/<fmt>/<fmt>_format.c);
 * the table that lists them is src/session/format_registry.c. Native
 * renderers (info, stats, print styles) are consumers, registered apart
 * (src/output/render_table.h).
 *
 * Every function pointer may be NULL when the format lacks the capability;
 * callers then report "not supported for FORMAT". */
#ifndef TK_MODEL_FORMAT_OPS_H
#define TK_MODEL_FORMAT_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "tracekit/tracekit.h"

typedef struct tk_format_ops {
	tk_format format;
	const char *name;
	/* Content detection. head: the first bytes of a file (n may be small). */
	bool (*detect_file)(const uint8_t *head, size_t n);
	/* A directory (or a file inside one) holding this format. */
	bool (*detect_dir)(const char *path);
	tk_status (*source_open)(const char *path, const tk_open_options *opt, tk_source **out,
				 tk_error *err);
	/* Lossless native copy (perf -> perf, CPEL -> CPEL, DCPI -> DCPI). */
	tk_status (*copy)(const char *in, const char *out, const tk_sink_options *opt,
			  tk_error *err);
	tk_status (*sink_open)(const char *path, const tk_trace_info *info,
			       const tk_sink_options *opt, tk_sink **out, tk_error *err);
} tk_format_ops;

#endif
