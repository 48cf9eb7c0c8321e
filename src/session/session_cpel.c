/* CPEL's session driver: the file validated once (tk_cpel_open), then one
 * record per call from src/cpel's cursor. See session_cpel.h. */
#include <stdlib.h>
#include <string.h>

#include "session/session_cpel.h"
#include "session/session_impl.h"

typedef struct cpel_state {
	tk_cpel_file *f;
	bool own;
	tk_cpel_cursor cur;
} cpel_state;

static tk_status cpel_state_new(tk_session *s, tk_cpel_file *f, bool own, tk_error *err)
{
	cpel_state *c = calloc(1, sizeof *c);
	if (!c)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	c->f = f;
	c->own = own;
	c->cur.f = f;
	s->native = c;
	return TK_OK;
}

static tk_status cpel_open(tk_session *s, tk_error *err)
{
	tk_cpel_file *f;
	tk_status st = tk_cpel_open(s->path, s->opt.log, s->opt.log_user, &f, err);
	if (st != TK_OK)
		return st;
	if ((st = cpel_state_new(s, f, true, err)) != TK_OK)
		tk_cpel_close(f);
	return st;
}

static tk_status cpel_next(tk_session *s, tk_error *err)
{
	(void)err;
	cpel_state *c = s->native;
	if (!tk_cpel_cursor_next(&c->cur))
		return TK_END;
	s->item.kind = (tk_session_kind)TK_SESSION_CPEL_EVENT;
	s->item.native = &c->cur.rec;
	return TK_OK;
}

static void cpel_close(tk_session *s)
{
	cpel_state *c = s->native;
	if (c && c->own)
		tk_cpel_close(c->f);
	free(c);
	s->native = NULL;
}

const tk_session_driver tk_session_cpel_driver = {
    .format = TK_FORMAT_CPEL, .open = cpel_open, .next = cpel_next, .close = cpel_close};

const tk_cpel_file *tk_session_cpel(const tk_session *s)
{
	return s && s->driver == &tk_session_cpel_driver && s->native
		   ? ((const cpel_state *)s->native)->f
		   : NULL;
}

tk_status tk_session_open_cpel(tk_cpel_file *f, bool own, const char *name, tk_session **out,
			       tk_error *err)
{
	*out = NULL;
	tk_session *s = calloc(1, sizeof *s);
	if (!s || !(s->path = strdup(name))) {
		free(s);
		if (own)
			tk_cpel_close(f);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	/* what tk_session_open sets for a native session */
	s->format = TK_FORMAT_CPEL;
	s->mode = TK_SESSION_NATIVE;
	s->opt.format = TK_FORMAT_CPEL;
	s->driver = &tk_session_cpel_driver;
	tk_status st = cpel_state_new(s, f, own, err);
	if (st != TK_OK) {
		if (own)
			tk_cpel_close(f);
		/* nothing opened yet: freed here, not by tk_session_close, so
		 * the driver does not use session.c (which lists the drivers) */
		free(s->path);
		free(s);
		return st;
	}
	*out = s;
	return TK_OK;
}
