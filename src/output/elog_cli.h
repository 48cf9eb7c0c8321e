/* The elog renderers over an opened log, shared by the elog registry entry
 * and the tracekit logger's (whose files are read as elog). */
#ifndef TK_OUTPUT_ELOG_CLI_H
#define TK_OUTPUT_ELOG_CLI_H

#include "base/writer.h"
#include "model/render.h"
#include "cpel/elog_reader.h"

/* `tracekit info` text of an elog. */
void tk_elog_info_file(const tk_elog_file *f, const char *path, tk_writer *out);
/* A native session over an elog (fmt TK_FORMAT_ELOG) or a tracekit logger
 * file (TK_FORMAT_TKLOG, read as elog); see src/session/session_cpel.h. */
tk_status tk_elog_open_session(const char *path, tk_format fmt, tk_session **s, tk_error *err);
/* Print styles "elog" and "cpeldump" of a native elog session that has not
 * run; TK_ERR_UNSUPPORTED for others. */
tk_status tk_elog_print_session(tk_session *s, const char *path, const tk_render_options *opt,
				tk_writer *out, tk_error *err);

#endif
