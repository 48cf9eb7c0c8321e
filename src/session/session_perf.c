/* perf.data's session driver: the one loop over perf.data records outside
 * src/perf (tk_perf_next in perf's time order, or file order), handing each
 * record to the observers, then to the tool's sample or other-record
 * callback. */
#include "session/session_impl.h"

tk_status tk_session_perf_open(tk_session *s, tk_error *err)
{
	tk_perf_open_options po = {
	    .raw_order = s->opt.raw_order, .log = s->opt.log, .log_user = s->opt.log_user};
	return tk_perf_open(s->path, &po, &s->perf, err);
}

tk_status tk_session_perf_run(tk_session *s, const tk_session_tool *tool, void *user, tk_error *err)
{
	static const tk_session_tool none;
	if (!tool)
		tool = &none;
	const tk_perf_record *rec;
	tk_session_item item = {.kind = TK_SESSION_PERF_RECORD, .perf_file = s->perf};
	tk_status st;
	while ((st = tk_perf_next(s->perf, &rec, err)) == TK_OK) {
		if (s->n_obs) {
			item.perf = rec;
			if ((st = tk_session_notify(s, &item, err)) != TK_OK)
				break;
		}
		if (rec->type == TK_PERF_RECORD_SAMPLE) {
			if (tool->perf_sample &&
			    (st = tool->perf_sample(s, rec, user, err)) != TK_OK)
				break;
		} else if (tool->perf_other &&
			   (st = tool->perf_other(s, rec, user, err)) != TK_OK) {
			break;
		}
	}
	return st == TK_END ? TK_OK : st;
}
