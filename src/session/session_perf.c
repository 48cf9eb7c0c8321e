/* perf.data's session driver: the one loop over perf.data records outside
 * src/perf (tk_perf_next in perf's time order, or file order); session.c
 * hands each record to the observers, then to the tool's sample or
 * other-record callback (or to a puller). */
#include "session/session_impl.h"

static tk_status perf_open(tk_session *s, tk_error *err)
{
	tk_perf_open_options po = {
	    .raw_order = s->opt.raw_order, .log = s->opt.log, .log_user = s->opt.log_user};
	tk_status st = tk_perf_open(s->path, &po, &s->perf, err);
	s->item.perf_file = s->perf;
	return st;
}

static tk_status perf_next(tk_session *s, tk_error *err)
{
	s->item.kind = TK_SESSION_PERF_RECORD;
	return tk_perf_next(s->perf, &s->item.perf, err);
}

static void perf_close(tk_session *s)
{
	tk_perf_close(s->perf);
	s->perf = NULL;
}

const tk_session_driver tk_session_perf_driver = {
    .format = TK_FORMAT_PERF, .open = perf_open, .next = perf_next, .close = perf_close};
