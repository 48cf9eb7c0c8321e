/* Filtered model events through a session; see session_events.h. */
#include "session/session_events.h"

typedef struct filtered {
	tk_filter filter;
	uint64_t limit, n;
	tk_session_event_fn fn;
	void *user;
} filtered;

static tk_status on_event(tk_session *s, const tk_event *ev, void *user, tk_error *err)
{
	(void)s;
	filtered *f = user;
	if (!tk_filter_match(&f->filter, ev))
		return TK_OK;
	tk_status st = f->fn(f->user, ev, err);
	if (st == TK_OK && f->limit && ++f->n >= f->limit)
		return TK_END;
	return st;
}

tk_status tk_session_filtered_events(const char *path, tk_format fmt, const tk_render_options *opt,
				     tk_session_event_fn fn, void *user, tk_error *err)
{
	return tk_session_filtered_events_with(path, fmt, opt, fn, user, NULL, NULL, err);
}

tk_status tk_session_filtered_events_with(const char *path, tk_format fmt,
					  const tk_render_options *opt, tk_session_event_fn fn,
					  void *user, tk_session_prepare_fn prepare,
					  void *prepare_user, tk_error *err)
{
	tk_open_options oo = {
	    .format = fmt,
	    .all_records = opt->all_records,
	    .raw_order = opt->raw_order,
	    .wall_clock = opt->wall_clock,
	    .log = opt->log,
	    .log_user = opt->log_user,
	};
	tk_session *s;
	tk_status st = tk_session_open(path, &oo, TK_SESSION_MODEL, &s, err);
	if (st != TK_OK)
		return st;
	filtered f = {.filter = tk_render_filter(opt), .limit = opt->limit, .fn = fn, .user = user};
	tk_session_tool tool = {.event = on_event};
	if (!prepare || (st = prepare(prepare_user, s, err)) == TK_OK)
		st = tk_session_run(s, &tool, &f, err);
	tk_session_close(s);
	return st;
}

tk_status tk_session_open_perf(const char *path, const tk_render_options *opt, bool raw_order,
			       tk_session **out, tk_error *err)
{
	tk_open_options oo = {.format = TK_FORMAT_PERF,
			      .raw_order = raw_order,
			      .log = opt->log,
			      .log_user = opt->log_user};
	return tk_session_open(path, &oo, TK_SESSION_NATIVE, out, err);
}
