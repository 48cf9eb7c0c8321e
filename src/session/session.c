/* Sessions: opening an input once for a mode, observers, and the model
 * driver (the format's tk_source, events handed to observers then to the
 * tool). See include/tracekit/session.h. */
#include <stdlib.h>
#include <string.h>

#include "model/source_impl.h"
#include "session/format_registry.h"
#include "session/session_impl.h"

tk_status tk_session_open(const char *path, const tk_open_options *opt, tk_session_mode mode,
			  tk_session **out, tk_error *err)
{
	*out = NULL;
	tk_open_options o = opt ? *opt : (tk_open_options){0};
	if (!o.format) {
		o.format = tk_detect_path(path, err);
		if (o.format == TK_FORMAT_UNKNOWN)
			return err && err->status ? err->status : TK_ERR_UNSUPPORTED;
	}
	if (mode == TK_SESSION_NATIVE && o.format != TK_FORMAT_PERF)
		return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
				    "no native session for %s files", tk_format_name(o.format));
	tk_session *s = calloc(1, sizeof *s);
	if (!s || !(s->path = strdup(path))) {
		free(s);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	s->format = o.format;
	s->mode = mode;
	s->opt = o;
	tk_status st;
	if (mode == TK_SESSION_NATIVE) {
		st = tk_session_perf_open(s, err);
	} else {
		const tk_format_ops *ops = tk_format_ops_for(o.format);
		st = ops && ops->source_open
			 ? ops->source_open(path, &o, &s->source, err)
			 : tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
					"no reader for format %s", tk_format_name(o.format));
	}
	if (st != TK_OK) {
		tk_session_close(s);
		return st;
	}
	*out = s;
	return TK_OK;
}

/* Model mode over perf.data: the records the events are made from. */
static tk_status on_native(void *user, const void *file, const void *record, tk_error *err)
{
	tk_session *s = user;
	tk_session_item item = {.kind = TK_SESSION_PERF_RECORD, .perf = record, .perf_file = file};
	return tk_session_notify(s, &item, err);
}

tk_status tk_session_add_observer(tk_session *s, tk_session_observer_fn fn, void *user,
				  tk_error *err)
{
	if (s->n_obs == TK_SESSION_MAX_OBSERVERS)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
				    "more than %d observers on one session",
				    TK_SESSION_MAX_OBSERVERS);
	s->obs[s->n_obs].fn = fn;
	s->obs[s->n_obs].user = user;
	s->n_obs++;
	if (s->source && s->format == TK_FORMAT_PERF) {
		s->source->native = on_native;
		s->source->native_user = s;
	}
	return TK_OK;
}

static tk_status model_run(tk_session *s, const tk_session_tool *tool, void *user, tk_error *err)
{
	const tk_event *ev;
	tk_session_item item = {.kind = TK_SESSION_EVENT};
	tk_status st;
	while ((st = tk_source_next(s->source, &ev, err)) == TK_OK) {
		if (s->n_obs) {
			item.event = ev;
			if ((st = tk_session_notify(s, &item, err)) != TK_OK)
				break;
		}
		if (tool && tool->event && (st = tool->event(s, ev, user, err)) != TK_OK)
			break;
	}
	return st == TK_END ? TK_OK : st;
}

tk_status tk_session_run(tk_session *s, const tk_session_tool *tool, void *user, tk_error *err)
{
	if (s->ran)
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET, "a session runs once");
	s->ran = true;
	return s->mode == TK_SESSION_NATIVE ? tk_session_perf_run(s, tool, user, err)
					    : model_run(s, tool, user, err);
}

tk_format tk_session_format(const tk_session *s)
{
	return s ? s->format : TK_FORMAT_UNKNOWN;
}

const char *tk_session_path(const tk_session *s)
{
	return s ? s->path : NULL;
}

tk_perf_file *tk_session_perf(tk_session *s)
{
	return s ? s->perf : NULL;
}

tk_source *tk_session_source(tk_session *s)
{
	return s ? s->source : NULL;
}

void tk_session_close(tk_session *s)
{
	if (!s)
		return;
	tk_perf_close(s->perf);
	tk_source_close(s->source);
	free(s->path);
	free(s);
}
