/* The table of native renderers (output/render_ops.h): one entry per
 * format, in src/output/<fmt>_cli.c. Formats without an entry, and styles
 * an entry does not know, are printed by the generic model printer. */
#ifndef TK_OUTPUT_RENDER_TABLE_H
#define TK_OUTPUT_RENDER_TABLE_H

#include "output/render_ops.h"

/* The entry of fmt, or NULL. */
const tk_render_ops *tk_render_ops_for(tk_format fmt);

extern const tk_render_ops tk_perf_render_ops;
extern const tk_render_ops tk_ctf_render_ops;
extern const tk_render_ops tk_cpel_render_ops;
extern const tk_render_ops tk_elog_render_ops;
extern const tk_render_ops tk_dcpi_render_ops;
extern const tk_render_ops tk_tklog_render_ops;

#endif
