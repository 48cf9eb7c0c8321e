/* What a format module implements to be a tk_source or tk_sink. A format's
 * source struct embeds `tk_source` as its first member. */
#ifndef TK_MODEL_SOURCE_IMPL_H
#define TK_MODEL_SOURCE_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "tracekit/tracekit.h"

typedef struct tk_source_ops {
	tk_status (*next)(tk_source *src, const tk_event **out, tk_error *err);
	void (*close)(tk_source *src);
} tk_source_ops;

/* A hook on the native records a source reads (perf.data: every
 * tk_perf_record, before it is filtered or turned into an event, with the
 * tk_perf_file it belongs to for typed parses), so a session's observers
 * and a model context see them in model mode too. Sources that cannot
 * offer their records ignore it. */
typedef tk_status (*tk_source_native_fn)(void *user, const void *file, const void *record,
					 tk_error *err);

/* The model context attached by tk_source_set_context (context.h): it
 * sees every event before tk_source_next() returns it, and ctx is stamped
 * on the event (tk_event.model_ctx). A function pointer keeps this layer
 * free of the context layer above it. Zeroed: none. */
typedef struct tk_source_observer {
	tk_status (*on_event)(void *user, const tk_event *ev, tk_error *err);
	void *user;
	struct tk_context *ctx;
} tk_source_observer;

struct tk_source {
	const tk_source_ops *ops;
	tk_trace_info info;
	tk_source_native_fn native; /* NULL = none (set by a session or a context) */
	void *native_user;
	tk_source_observer obs; /* sources are calloc'ed: none by default */
	size_t classes_cap;     /* info.event_classes: see tk_source_add_class */
};

/* Appends c to the event classes the source publishes (info.event_classes
 * and n_event_classes), in an array the source owns from then on; false
 * when out of memory. The source frees the array at close with
 * tk_source_classes_free(). */
bool tk_source_add_class(tk_source *src, const tk_event_class *c);
void tk_source_classes_free(tk_source *src);

typedef struct tk_sink_ops {
	tk_status (*write)(tk_sink *sink, const tk_event *ev, tk_error *err);
	tk_status (*close)(tk_sink *sink, tk_error *err); /* commit and free */
	void (*abort)(tk_sink *sink);                     /* remove output and free */
} tk_sink_ops;

struct tk_sink {
	const tk_sink_ops *ops;
};

#endif
