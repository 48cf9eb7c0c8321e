/* The elog session driver (VPP event logs, and tracekit logger files
 * recovered into elog bytes in memory): the log parsed once, then one event
 * per call in log order. See session_cpel.h. */
#include <stdlib.h>

#include "cpel/cpel_adapters.h"
#include "session/session_cpel.h"
#include "session/session_impl.h"

typedef struct elog_state {
	tk_elog_file *f;
	tk_elog_record rec;
} elog_state;

static tk_status elog_start(tk_session *s, tk_elog_file *f, tk_error *err)
{
	elog_state *e = calloc(1, sizeof *e);
	if (!e) {
		tk_elog_close(f);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	e->f = f;
	s->native = e;
	return TK_OK;
}

static tk_status elog_open(tk_session *s, tk_error *err)
{
	tk_elog_file *f;
	tk_status st = tk_elog_open(s->path, &f, err);
	return st == TK_OK ? elog_start(s, f, err) : st;
}

static tk_status tklog_open(tk_session *s, tk_error *err)
{
	tk_elog_file *f;
	tk_status st = tk_tklog_open_elog(s->path, &f, err);
	return st == TK_OK ? elog_start(s, f, err) : st;
}

static tk_status elog_next(tk_session *s, tk_error *err)
{
	(void)err;
	elog_state *e = s->native;
	uint32_t i = e->rec.event ? e->rec.index + 1 : 0;
	if (i >= e->f->n_events)
		return TK_END;
	e->rec.index = i;
	e->rec.event = &e->f->events[i];
	s->item.kind = (tk_session_kind)TK_SESSION_ELOG_EVENT;
	s->item.native = &e->rec;
	return TK_OK;
}

static void elog_close_state(tk_session *s)
{
	elog_state *e = s->native;
	if (e)
		tk_elog_close(e->f);
	free(e);
	s->native = NULL;
}

const tk_session_driver tk_session_elog_driver = {
    .format = TK_FORMAT_ELOG, .open = elog_open, .next = elog_next, .close = elog_close_state};
const tk_session_driver tk_session_tklog_driver = {
    .format = TK_FORMAT_TKLOG, .open = tklog_open, .next = elog_next, .close = elog_close_state};

const tk_elog_file *tk_session_elog(const tk_session *s)
{
	return s && s->native &&
		       (s->driver == &tk_session_elog_driver ||
			s->driver == &tk_session_tklog_driver)
		   ? ((const elog_state *)s->native)->f
		   : NULL;
}
