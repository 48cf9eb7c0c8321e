/* The format registry: the table of format entries (tk_format_ops,
 * model/format_ops.h) and content detection; detection walks the table in
 * order. */
#ifndef TK_CONVERT_FORMATS_H
#define TK_CONVERT_FORMATS_H

#include "model/format_ops.h"

/* Old names, kept while branches written against them are merged:
 * the options are the library's neutral tk_render_options now. */
typedef tk_render_options tk_cli_options;
static inline tk_filter tk_cli_filter(const tk_render_options *opt)
{
	return tk_render_filter(opt);
}

/* Registry lookups; NULL when unknown. */
const tk_format_ops *tk_format_ops_for(tk_format fmt);
/* Detects from content; TK_FORMAT_UNKNOWN with err set when nothing matches. */
tk_format tk_detect_path(const char *path, tk_error *err);

/* Provided by each format (src/output/<fmt>_cli.c). */
extern const tk_format_ops tk_perf_format_ops;
extern const tk_format_ops tk_ctf_format_ops;
extern const tk_format_ops tk_cpel_format_ops;
extern const tk_format_ops tk_elog_format_ops;
extern const tk_format_ops tk_dcpi_format_ops;
extern const tk_format_ops tk_tklog_format_ops;

#endif
