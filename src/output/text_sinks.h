/* Sinks that write text renderings of model events: JSON lines (the same
 * objects as `print --format json`) and the Chrome Trace Event Format
 * ({"traceEvents": [...]}, opened by Perfetto UI and chrome://tracing).
 * Both write atomically (path "-" = stdout). */
#ifndef TK_OUTPUT_TEXT_SINKS_H
#define TK_OUTPUT_TEXT_SINKS_H

#include "tracekit/tracekit.h"

tk_status tk_jsonl_sink_open(const char *path, const tk_trace_info *info,
			     const tk_sink_options *opt, tk_sink **out, tk_error *err);
tk_status tk_chrome_sink_open(const char *path, const tk_trace_info *info,
			      const tk_sink_options *opt, tk_sink **out, tk_error *err);

#endif
