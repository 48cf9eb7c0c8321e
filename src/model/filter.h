/* Event filters shared by print and convert: time range, event name globs,
 * pid, tid, cpu. Built once from options; tk_filter_match() is cheap. */
#ifndef TK_MODEL_FILTER_H
#define TK_MODEL_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "tracekit/tracekit.h"

typedef struct tk_filter {
	bool has_begin, has_end;
	uint64_t begin_ns, end_ns;
	const char *events;    /* comma-separated globs, or NULL */
	int64_t pid, tid, cpu; /* -1 = any */
} tk_filter;

bool tk_filter_is_empty(const tk_filter *f);
/* fnmatch-style globs separated by commas. */
bool tk_filter_name_matches(const char *globs, const char *name);
bool tk_filter_match(const tk_filter *f, const tk_event *ev);

#endif
