/* The generic consumers' road: the model events of one input that pass a
 * renderer's filters (time range, event globs, pid/tid/cpu), at most its
 * limit, through a model session. Used by the generic printer and the
 * time reports. */
#ifndef TK_SESSION_SESSION_EVENTS_H
#define TK_SESSION_SESSION_EVENTS_H

#include "model/render.h"
#include "tracekit/tracekit.h"

typedef tk_status (*tk_session_event_fn)(void *user, const tk_event *ev, tk_error *err);

/* Opens path as fmt (0 = detect) with opt's record selection, order, clock
 * and warnings, and calls fn for each event that passes tk_render_filter(opt),
 * stopping after opt->limit of them (0 = none). fn's TK_END stops early;
 * TK_OK at the end, else the first error. */
tk_status tk_session_filtered_events(const char *path, tk_format fmt, const tk_render_options *opt,
				     tk_session_event_fn fn, void *user, tk_error *err);

/* The same, with prepare(prepare_user, session) called once the session is
 * open and before it runs (a consumer attaches derived state there, such as
 * a model context on tk_session_source()); its error ends the call. */
typedef tk_status (*tk_session_prepare_fn)(void *user, tk_session *s, tk_error *err);
tk_status tk_session_filtered_events_with(const char *path, tk_format fmt,
					  const tk_render_options *opt, tk_session_event_fn fn,
					  void *user, tk_session_prepare_fn prepare,
					  void *prepare_user, tk_error *err);

/* A native perf.data session with opt's warnings, in file order when
 * raw_order (info and stats count records as they are stored). */
tk_status tk_session_open_perf(const char *path, const tk_render_options *opt, bool raw_order,
			       tk_session **out, tk_error *err);

#endif
