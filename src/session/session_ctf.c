/* CTF's session driver: the merged events of every trace below the path,
 * one per call (ctf_reader_next), and the span-only read of info/stats.
 * See session_ctf.h. */
#include "session/session_ctf.h"

#include "session/session_impl.h"

static tk_status ctf_open(tk_session *s, tk_error *err)
{
	return ctf_reader_open(s->path, s->opt.log, s->opt.log_user, &s->ctf, err);
}

static tk_status ctf_next(tk_session *s, tk_error *err)
{
	s->item.kind = TK_SESSION_CTF_EVENT;
	return ctf_reader_next(s->ctf, &s->item.ctf, err);
}

static void ctf_close(tk_session *s)
{
	ctf_reader_close(s->ctf);
	s->ctf = NULL;
}

/* The push loop without a call per event through next and the dispatch:
 * babeltrace's pretty text of small events (dmesg lines) spends ~1200
 * instructions per event, and the generic loop added ~40. Returns what the
 * generic loop would (TK_END from a callback or an observer included). */
typedef struct ctf_each {
	tk_session *s;
	tk_status (*fn)(tk_session *, const ctf_event_out *, void *, tk_error *);
	void *user;
} ctf_each;

static tk_status each_event(void *user, const ctf_event_out *ev, tk_error *err)
{
	ctf_each *e = user;
	e->s->item.ctf = ev;
	return e->fn(e->s, ev, e->user, err);
}

static tk_status ctf_run(tk_session *s, const tk_session_tool *tool, void *user, tk_error *err)
{
	tk_session_item *it = &s->item;
	it->kind = TK_SESSION_CTF_EVENT;
	tk_status (*const fn)(tk_session *, const ctf_event_out *, void *, tk_error *) =
	    tool->ctf_event;
	tk_status st;
	if (fn && !s->n_obs) {
		/* the common case: the merge inlined in the reader's own loop */
		ctf_each e = {s, fn, user};
		return ctf_reader_each(s->ctf, each_event, &e, err);
	}
	while ((st = ctf_reader_next(s->ctf, &it->ctf, err)) == TK_OK) {
		if (s->n_obs && (st = tk_session_notify(s, it, err)) != TK_OK)
			break;
		if (fn && (st = fn(s, it->ctf, user, err)) != TK_OK)
			break;
	}
	return st;
}

const tk_session_driver tk_session_ctf_driver = {.format = TK_FORMAT_CTF,
						 .open = ctf_open,
						 .next = ctf_next,
						 .close = ctf_close,
						 .run = ctf_run};

ctf_reader *tk_session_ctf(tk_session *s)
{
	return s ? s->ctf : NULL;
}

tk_status tk_session_ctf_span(tk_session *s, ctf_span *span, tk_error *err)
{
	if (!s->ctf || s->ran || s->n_obs)
		return tk_error_set(
		    err, TK_ERR_USAGE, TK_NO_OFFSET,
		    "a span read needs a fresh native CTF session without observers");
	s->ran = true;
	return ctf_reader_span(s->ctf, span, err);
}
