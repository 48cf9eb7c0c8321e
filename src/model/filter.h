/* Event filters shared by print and convert: time range, event name globs,
 * pid, tid, cpu. Built once from options; tk_filter_match() is cheap. */
#ifndef TK_MODEL_FILTER_H
#define TK_MODEL_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "tracekit/tracekit.h"

enum { TK_ID_SET_MAX = 32 };

/* A set of pids, tids or cpus as perf's --pid/--tid/--cpu take them:
 * "18,21140", "0-1,3". Zeroed (n == 0) = any. */
typedef struct tk_id_set {
	unsigned n;
	struct {
		int64_t lo, hi;
	} r[TK_ID_SET_MAX];
} tk_id_set;

typedef struct tk_filter {
	bool has_begin, has_end;
	uint64_t begin_ns, end_ns;
	const char *events; /* comma-separated globs, or NULL */
	tk_id_set pid, tid, cpu;
} tk_filter;

static inline bool tk_id_set_any(const tk_id_set *s)
{
	return s->n == 0;
}
/* True when `v` is in the set (always for an empty set). */
bool tk_id_set_has(const tk_id_set *s, int64_t v);
/* Parses "N", "N-M" and comma lists of them (0 <= N <= M <= INT32_MAX).
 * Returns 0, or -1 for a malformed list or more than TK_ID_SET_MAX parts. */
int tk_id_set_parse(tk_id_set *s, const char *text);
/* The set holding just `v`. */
tk_id_set tk_id_set_one(int64_t v);

bool tk_filter_is_empty(const tk_filter *f);
/* fnmatch-style globs separated by commas. */
bool tk_filter_name_matches(const char *globs, const char *name);
bool tk_filter_match(const tk_filter *f, const tk_event *ev);

#endif
