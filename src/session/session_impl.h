/* The session object and its per-format drivers (session.c: the generic
 * part and the model driver; session_perf.c: perf.data's record loop). */
#ifndef TK_SESSION_SESSION_IMPL_H
#define TK_SESSION_SESSION_IMPL_H

#include "tracekit/tracekit.h"

enum { TK_SESSION_MAX_OBSERVERS = 8 };

struct tk_session {
	char *path;
	tk_format format;
	tk_session_mode mode;
	tk_open_options opt;
	tk_perf_file *perf; /* native perf.data */
	tk_source *source;  /* model */
	bool ran;
	size_t n_obs;
	struct {
		tk_session_observer_fn fn;
		void *user;
	} obs[TK_SESSION_MAX_OBSERVERS];
};

/* Hands item to every observer; TK_OK or what one returned. */
static inline tk_status tk_session_notify(tk_session *s, const tk_session_item *item, tk_error *err)
{
	for (size_t i = 0; i < s->n_obs; i++) {
		tk_status st = s->obs[i].fn(s->obs[i].user, s, item, err);
		if (st != TK_OK)
			return st;
	}
	return TK_OK;
}

/* perf.data's driver (session_perf.c). */
tk_status tk_session_perf_open(tk_session *s, tk_error *err);
tk_status tk_session_perf_run(tk_session *s, const tk_session_tool *tool, void *user,
			      tk_error *err);

#endif
