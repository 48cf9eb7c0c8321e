/* Sessions: opening an input once for a mode, observers, the one loop that
 * drives every format (push: tk_session_run; pull: tk_session_next) and the
 * model driver (the format's tk_source). See include/tracekit/session.h. */
#include <stdlib.h>
#include <string.h>

#include "model/source_impl.h"
#include "session/format_registry.h"
#include "session/session_impl.h"

/* The formats whose records a native session hands out. */
static const tk_session_driver *const tk_session_drivers[] = {
    &tk_session_perf_driver,  /* session_perf.c */
    &tk_session_ctf_driver,   /* session_ctf.c */
    &tk_session_cpel_driver,  /* session_cpel.c */
    &tk_session_elog_driver,  /* session_elog.c */
    &tk_session_tklog_driver, /* session_elog.c */
    &tk_session_dcpi_driver,  /* session_dcpi.c */
};

static const tk_session_driver *driver_for(tk_format fmt)
{
	for (size_t i = 0; i < sizeof tk_session_drivers / sizeof tk_session_drivers[0]; i++)
		if (tk_session_drivers[i]->format == fmt)
			return tk_session_drivers[i];
	return NULL;
}

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
	const tk_session_driver *drv = mode == TK_SESSION_NATIVE ? driver_for(o.format) : NULL;
	if (mode == TK_SESSION_NATIVE && !drv)
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
	s->driver = drv;
	tk_status st;
	if (drv) {
		st = drv->open(s, err);
	} else {
		const tk_format_ops *ops = tk_format_ops_for(o.format);
		st = ops && ops->source_open
			 ? ops->source_open(path, &o, &s->source, err)
			 : tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
					"no reader for format %s", tk_format_name(o.format));
		s->item.kind = TK_SESSION_EVENT;
	}
	if (st != TK_OK) {
		tk_session_close(s);
		return st;
	}
	*out = s;
	return TK_OK;
}

tk_status tk_session_open_source(tk_source *src, bool owned, const char *path, tk_session **out,
				 tk_error *err)
{
	*out = NULL;
	tk_session *s = calloc(1, sizeof *s);
	if (!s || !(s->path = strdup(path ? path : ""))) {
		free(s);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	s->format = tk_source_info(src)->format;
	s->mode = TK_SESSION_MODEL;
	s->opt.format = s->format;
	s->source = src;
	s->borrowed = !owned;
	s->item.kind = TK_SESSION_EVENT;
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

/* The next item into s->item, observers called: the one step both the
 * push loop and the puller take. */
static inline tk_status step(tk_session *s, tk_error *err)
{
	tk_status st =
	    s->driver ? s->driver->next(s, err) : tk_source_next(s->source, &s->item.event, err);
	if (st == TK_OK && s->n_obs)
		st = tk_session_notify(s, &s->item, err);
	return st;
}

/* Hands the current item to the tool's callback for its kind. */
static inline tk_status dispatch(tk_session *s, const tk_session_tool *tool, void *user,
				 tk_error *err)
{
	const tk_session_item *it = &s->item;
	switch (it->kind) {
	case TK_SESSION_EVENT: return tool->event ? tool->event(s, it->event, user, err) : TK_OK;
	case TK_SESSION_PERF_RECORD:
		if (it->perf->type == TK_PERF_RECORD_SAMPLE)
			return tool->perf_sample ? tool->perf_sample(s, it->perf, user, err)
						 : TK_OK;
		return tool->perf_other ? tool->perf_other(s, it->perf, user, err) : TK_OK;
	case TK_SESSION_CTF_EVENT:
		return tool->ctf_event ? tool->ctf_event(s, it->ctf, user, err) : TK_OK;
	}
	return tool->record ? tool->record(s, it, user, err) : TK_OK;
}

tk_status tk_session_run(tk_session *s, const tk_session_tool *tool, void *user, tk_error *err)
{
	static const tk_session_tool none;
	if (s->ran)
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET, "a session runs once");
	s->ran = true;
	if (!tool)
		tool = &none;
	tk_status st;
	if (s->driver && s->driver->run)
		st = s->driver->run(s, tool, user, err);
	else
		while ((st = step(s, err)) == TK_OK && (st = dispatch(s, tool, user, err)) == TK_OK)
			;
	s->done = st == TK_OK ? TK_END : st;
	return st == TK_END ? TK_OK : st;
}

/* The pull's cold paths: the first call (or a misuse) and an item that
 * observers must see or an end; kept out of line so the common step (no
 * observers, TK_OK) stays a short leaf-like call per event. */
static __attribute__((noinline)) tk_status next_first(tk_session *s, const tk_session_item **out,
						      tk_error *err)
{
	*out = NULL;
	if (s->ran && !s->pulling)
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
				    "a session is run or pulled, not both");
	if (s->done == TK_END)
		return TK_END;
	if (s->done != TK_OK)
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
				    "the session ended with an error");
	s->ran = s->pulling = true;
	s->pull_ok = true;
	return tk_session_next(s, out, err);
}

static __attribute__((noinline)) tk_status next_rest(tk_session *s, tk_status st,
						     const tk_session_item **out, tk_error *err)
{
	if (st == TK_OK && s->n_obs)
		st = tk_session_notify(s, &s->item, err);
	if (st != TK_OK) {
		s->done = st;
		s->pull_ok = false;
		*out = NULL;
		return st;
	}
	*out = &s->item;
	return TK_OK;
}

tk_status tk_session_next(tk_session *s, const tk_session_item **out, tk_error *err)
{
	if (__builtin_expect(!s->pull_ok, 0))
		return next_first(s, out, err);
	tk_status st =
	    s->driver ? s->driver->next(s, err) : tk_source_next(s->source, &s->item.event, err);
	if (__builtin_expect(st != TK_OK || s->n_obs, 0))
		return next_rest(s, st, out, err);
	*out = &s->item;
	return TK_OK;
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
	if (s->driver)
		s->driver->close(s);
	if (!s->borrowed)
		tk_source_close(s->source);
	free(s->path);
	free(s);
}
