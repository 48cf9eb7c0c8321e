/* What a format module implements to be a tk_source or tk_sink. A format's
 * source struct embeds `tk_source` as its first member. */
#ifndef TK_MODEL_SOURCE_IMPL_H
#define TK_MODEL_SOURCE_IMPL_H

#include "tracekit/tracekit.h"

typedef struct tk_source_ops {
	tk_status (*next)(tk_source *src, const tk_event **out, tk_error *err);
	void (*close)(tk_source *src);
} tk_source_ops;

struct tk_source {
	const tk_source_ops *ops;
	tk_trace_info info;
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
