/* Lean reading of perf.data and CTF: the events a model source would
 * return, in the same order and with the same errors and warnings, with
 * their header fields only (class, time, cpu, offset; perf.data also pid,
 * tid and the sample period) and no values built. For the readers that
 * count or tabulate events: `tracekit sql`'s count mode and Python's
 * Source.columns(). It reads through a native session (the one loop per
 * format) and sits beside the model context, above src/session.
 *
 * - perf.data: samples in perf's time order (file order with raw_order),
 *   each parsed so a damaged one fails as on the model path; classes named
 *   by their attr, as the perf source names them.
 * - CTF: the session's reader with its lean decode plans (what `tracekit
 *   stats` runs). LTTng pid/tid live in the contexts, which are not
 *   decoded: pid and tid are TK_PID_NONE.
 *
 * A tk_lean is not thread-safe; the event and classes it returns are
 * borrowed, valid until the next call (the event) or close (classes). */
#ifndef TK_CONTEXT_LEAN_READER_H
#define TK_CONTEXT_LEAN_READER_H

#include "tracekit/tracekit.h"

typedef struct tk_lean tk_lean;

typedef struct tk_lean_options {
	tk_log_fn log; /* warnings (discarded events, ...) */
	void *log_user;
	bool raw_order; /* perf.data: file order instead of time order */
} tk_lean_options;

/* format: TK_FORMAT_PERF or TK_FORMAT_CTF (others: TK_ERR_USAGE). */
tk_status tk_lean_open(const char *path, tk_format format, const tk_lean_options *opt,
		       tk_lean **out, tk_error *err);
void tk_lean_close(tk_lean *l); /* NULL is fine */

/* The next event: header fields only (payload, contexts NULL) and, for
 * perf.data, its sample period (0 when none; CTF: 0). TK_END at the end. */
tk_status tk_lean_next(tk_lean *l, const tk_event **out, uint64_t *period, tk_error *err);

/* Column arrays for tk_lean_read(): each non-NULL one receives a value
 * per event, from index 0 (ts 0 when the event has no time; cpu, pid, tid
 * TK_CPU_NONE / TK_PID_NONE when unknown; period 0 when none). */
typedef struct tk_lean_columns {
	uint64_t *ts, *offset, *period;
	int32_t *cpu, *pid, *tid;
	const tk_event_class **cls;
} tk_lean_columns;

/* Up to max events straight into the arrays, without a call per event on
 * the caller's side (Python's columns()): *n events written. TK_OK when
 * max were written, TK_END when the input ended first, else an error
 * (the *n events before it are written). */
tk_status tk_lean_read(tk_lean *l, const tk_lean_columns *c, size_t max, size_t *n, tk_error *err);

/* Called once per class that has events, in class order, by
 * tk_lean_count(): name is never NULL. Nonzero stops the count (returned
 * as TK_ERR_NOMEM: callbacks fail only for want of memory). */
typedef int (*tk_lean_count_fn)(void *user, const char *name, uint64_t n);

/* Counts the events of a fresh reader per class, as `tracekit stats`
 * does: CTF through the inlined merge of lean plans, perf.data samples by
 * attr without parsing them (open with raw_order for stats' file order). */
tk_status tk_lean_count(tk_lean *l, tk_lean_count_fn fn, void *user, tk_error *err);

#endif
