/* The conversion pipeline: model sessions -> time muxer -> filters -> sink.
 * Memory stays bounded: the muxer holds one pending event per source (an
 * event stays valid until its own source is advanced). */
#ifndef TK_CONVERT_PIPELINE_H
#define TK_CONVERT_PIPELINE_H

#include <signal.h>

#include "model/filter.h"
#include "tracekit/tracekit.h"

typedef struct tk_muxer tk_muxer;

/* Pulls model events from the sessions (tk_session_next: their observers
 * see each event first); takes no ownership of them. */
tk_status tk_muxer_new(tk_session *const *sessions, size_t n, tk_muxer **out, tk_error *err);
/* The earliest pending event of all sources (events without a time come
 * first, in source order); TK_END when every source is done. */
tk_status tk_muxer_next(tk_muxer *m, const tk_event **out, size_t *source_index, tk_error *err);
void tk_muxer_free(tk_muxer *m);

typedef struct tk_pipeline_options {
	tk_filter filter;
	uint64_t limit;              /* 0 = no limit */
	bool progress;               /* progress line on stderr */
	uint64_t total_bytes;        /* input size for the ETA, 0 if unknown */
	volatile sig_atomic_t *stop; /* set by a signal handler: abort */
} tk_pipeline_options;

/* Runs the pipeline; does not close the sink (the caller commits with
 * tk_sink_close or removes the output with tk_sink_abort). */
tk_status tk_pipeline_run(tk_session *const *sessions, size_t n, tk_sink *sink,
			  const tk_pipeline_options *opt, uint64_t *events_out, tk_error *err);

#endif
