/* Generic model printer; see model_print.h. */
#include <string.h>

#include "session/session_events.h"
#include "output/model_print.h"

static tk_status print_json(void *user, const tk_event *ev, tk_error *err)
{
	(void)err;
	tk_event_write_json(user, ev);
	return TK_OK;
}

static tk_status print_text(void *user, const tk_event *ev, tk_error *err)
{
	(void)err;
	tk_event_write_text(user, ev);
	return TK_OK;
}

tk_status tk_model_print(const char *path, const tk_format_ops *ops, const tk_render_options *opt,
			 tk_writer *out, tk_error *err)
{
	bool json = strcmp(opt->style, "json") == 0;
	return tk_session_filtered_events(path, ops->format, opt, json ? print_json : print_text,
					  out, err);
}
