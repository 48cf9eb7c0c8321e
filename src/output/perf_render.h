/* perf.data renderers for the CLI: info (like perf report --header-only),
 * stats (like perf report --stats) and print (text and JSON lines). */
#ifndef TK_OUTPUT_PERF_RENDER_H
#define TK_OUTPUT_PERF_RENDER_H

#include "base/writer.h"
#include "model/render.h"

tk_status tk_perf_render_info(const char *path, const tk_render_options *opt, tk_writer *out,
			      tk_error *err);
tk_status tk_perf_render_stats(const char *path, const tk_render_options *opt, tk_writer *out,
			       tk_error *err);
tk_status tk_perf_render_print(const char *path, const tk_render_options *opt, tk_writer *out,
			       tk_error *err);

/* Writes sample_type bits as perf names them: "IP|TID|TIME". */
void tk_perf_put_sample_type(tk_writer *w, uint64_t sample_type);
/* Writes a record type name, or "UNKNOWN(<n>)". */
void tk_perf_put_record_type(tk_writer *w, uint32_t type);

#endif
