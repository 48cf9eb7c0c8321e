/* Native renderers of an input format: what `info`, `stats` and the
 * format's own print styles (perf-script, babeltrace, cpeldump, dcpicat,
 * ...) do for it. Each format's entry is in src/output/<fmt>_cli.c; the
 * table is render_table.c. */
#ifndef TK_OUTPUT_RENDER_OPS_H
#define TK_OUTPUT_RENDER_OPS_H

#include "base/writer.h"
#include "model/render.h"

typedef tk_status (*tk_render_fn)(const char *path, const tk_render_options *opt, tk_writer *out,
				  tk_error *err);

typedef struct tk_render_ops {
	tk_format format;
	tk_render_fn info;
	tk_render_fn stats;
	/* Native print styles; TK_ERR_UNSUPPORTED when opt->style is not one of
	 * this format's, so the caller falls back to the generic model printer. */
	tk_render_fn print;
} tk_render_ops;

#endif
