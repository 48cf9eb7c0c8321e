/* Sinks: write model events to a file in one of the supported formats.
 *
 * Not meant to be included alone: include <tracekit/tracekit.h>.
 *
 * The output appears complete or not at all: a sink writes under a
 * temporary name beside `path` and renames it in tk_sink_close(). A sink that
 * is closed after an error, or aborted, leaves nothing at `path`. */
#ifndef TRACEKIT_SINK_H
#define TRACEKIT_SINK_H

#include "model.h"
#include "status.h"

typedef struct tk_sink tk_sink;

typedef struct tk_sink_options {
	const char *byte_order; /* "big", "little", "native" or NULL (format default) */
	bool compress;
	unsigned packet_size; /* CTF packet size in bytes; 0 = default */
	bool packetized_metadata;
	const char *tracks; /* CPEL: "thread" (default) or "cpu" */
	tk_log_fn log;
	void *log_user;
	bool force;           /* CTF: replace an existing non-empty output directory */
	unsigned ctf_version; /* CTF: 2 writes CTF 2 (JSON metadata); 0 or 1: CTF 1.8 */
} tk_sink_options;

tk_status tk_sink_open(const char *path, tk_format fmt, const tk_trace_info *info,
		       const tk_sink_options *opt, tk_sink **out, tk_error *err);
tk_status tk_sink_write(tk_sink *sink, const tk_event *ev, tk_error *err);
tk_status tk_sink_close(tk_sink *sink, tk_error *err); /* commits atomically */
void tk_sink_abort(tk_sink *sink);                     /* removes the output */

#endif
