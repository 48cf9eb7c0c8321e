/* The format registry: the table of format entries (tk_format_ops,
 * model/format_ops.h) and content detection; detection walks the table in
 * order. */
#ifndef TK_SESSION_FORMAT_REGISTRY_H
#define TK_SESSION_FORMAT_REGISTRY_H

#include "model/format_ops.h"

/* Registry lookups; NULL when unknown. */
const tk_format_ops *tk_format_ops_for(tk_format fmt);
/* Detects from content; TK_FORMAT_UNKNOWN with err set when nothing matches. */
tk_format tk_detect_path(const char *path, tk_error *err);

/* Each format's entry (src/<fmt>/<fmt>_format.c). */
extern const tk_format_ops tk_perf_format_ops;
extern const tk_format_ops tk_ctf_format_ops;
extern const tk_format_ops tk_cpel_format_ops;
extern const tk_format_ops tk_elog_format_ops;
extern const tk_format_ops tk_dcpi_format_ops;
extern const tk_format_ops tk_tklog_format_ops;

#endif
