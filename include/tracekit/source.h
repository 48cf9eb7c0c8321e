/* Sources: read any supported input as model events; sinks: write them.
 *
 * Not meant to be included alone: include <tracekit/tracekit.h>.
 *
 * A source is opaque, single-threaded, and owns everything it returns.
 * tk_source_next() returns TK_OK with *out set, TK_END at the end, or an
 * error (details in err, with the byte offset). The event stays valid until
 * the next tk_source_next() or tk_source_close() on the same source. */
#ifndef TRACEKIT_SOURCE_H
#define TRACEKIT_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"
#include "status.h"

typedef struct tk_source tk_source;

typedef struct tk_open_options {
	tk_format format; /* TK_FORMAT_UNKNOWN: detect from the content */
	bool all_records; /* perf: also the records `perf data convert --all`
			   * adds: comm, exit, fork, mmap, mmap2 */
	bool raw_order;   /* file order instead of time order */
	bool wall_clock;  /* perf: the clock offset to the time of day, as
			   * `perf data convert --tod` (needs the CLOCK_DATA
			   * a recording made with -k has) */
	tk_log_fn log;    /* warnings; NULL: dropped */
	void *log_user;
} tk_open_options;

/* Detects the format of path ("-" = stdin) from its content (magic bytes, a
 * directory holding CTF metadata); never from the name. */
tk_format tk_detect_format(const char *path, tk_error *err);

tk_status tk_source_open(const char *path, const tk_open_options *opt, tk_source **out,
			 tk_error *err);
tk_status tk_source_next(tk_source *src, const tk_event **out, tk_error *err);
const tk_trace_info *tk_source_info(const tk_source *src);
void tk_source_close(tk_source *src); /* NULL is fine */

#endif
