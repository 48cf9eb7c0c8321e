/* What a format module implements to be a tk_source or tk_sink. A format's
 * source struct embeds `tk_source` as its first member. */
#ifndef TK_MODEL_SOURCE_IMPL_H
#define TK_MODEL_SOURCE_IMPL_H

#include "tracekit/tracekit.h"

typedef struct tk_source_ops {
	tk_status (*next)(tk_source *src, const tk_event **out, tk_error *err);
	void (*close)(tk_source *src);
} tk_source_ops;

/* Who watches a source's reading (the model context, through
 * tk_source_set_context): on_event sees every event before
 * tk_source_next() returns it; on_native sees every native record of a
 * format with side-band records (perf.data: tk_perf_file, tk_perf_record),
 * in reading order, before the event made of it. A function table keeps
 * this layer free of the context layer above it. Zeroed: nobody. */
typedef struct tk_source_observer {
	tk_status (*on_event)(void *user, const tk_event *ev, tk_error *err);
	tk_status (*on_native)(void *user, const void *file, const void *record, tk_error *err);
	void *user;
	struct tk_context *ctx; /* stamped on every event (tk_event.model_ctx) */
} tk_source_observer;
/* A hook on the native records a source reads (perf.data: every
 * tk_perf_record, before it is filtered or turned into an event), so a
 * session's observers see them in model mode too. Sources that cannot
 * offer their records ignore it. */
typedef tk_status (*tk_source_native_fn)(void *user, const void *record, tk_error *err);

struct tk_source {
	const tk_source_ops *ops;
	tk_trace_info info;
	tk_source_observer obs; /* sources are calloc'ed: none by default */
	tk_source_native_fn native; /* NULL = none (set by the session) */
	void *native_user;
};

typedef struct tk_sink_ops {
	tk_status (*write)(tk_sink *sink, const tk_event *ev, tk_error *err);
	tk_status (*close)(tk_sink *sink, tk_error *err); /* commit and free */
	void (*abort)(tk_sink *sink);                     /* remove output and free */
} tk_sink_ops;

struct tk_sink {
	const tk_sink_ops *ops;
};

#endif
