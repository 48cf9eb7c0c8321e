/* `tracekit info` and `tracekit stats` for CTF traces. */
#ifndef TK_OUTPUT_CTF_REPORT_H
#define TK_OUTPUT_CTF_REPORT_H

#include "base/writer.h"
#include "model/render.h"

/* Clocks, env, stream and event classes, data streams with their packets
 * and time span. */
tk_status tk_ctf_info(const char *path, const tk_render_options *opt, tk_writer *out,
		      tk_error *err);
/* Events per class and per stream, discarded events and packets. */
tk_status tk_ctf_stats(const char *path, const tk_render_options *opt, tk_writer *out,
		       tk_error *err);

#endif
