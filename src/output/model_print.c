/* Generic model printer; see model_print.h. */
#include <string.h>

#include "output/context_json.h"
#include "output/model_print.h"
#include "session/session_events.h"

/* A write of the output failed (the reader left: `| head`; a full disk):
 * nothing more can go out, the run ends (the CLI reports the error, or
 * exits 0 on a closed pipe, as it commits the output). */
static tk_status written(const tk_writer *w)
{
	return tk_writer_failed(w) ? TK_END : TK_OK;
}

static tk_status print_json(void *user, const tk_event *ev, tk_error *err)
{
	(void)err;
	/* with the context's names and stack (the context is on the session's
	 * source: tk_context_of(ev)) */
	tk_context_json_event(user, ev);
	return written(user);
}

static tk_status print_text(void *user, const tk_event *ev, tk_error *err)
{
	(void)err;
	tk_event_write_text(user, ev);
	return written(user);
}

/* JSON lines name threads and symbolize stacks from the model context. */
static tk_status attach_context(void *user, tk_session *s, tk_error *err)
{
	(void)err;
	tk_source_set_context(tk_session_source(s), user);
	return TK_OK;
}

tk_status tk_model_print(const char *path, const tk_format_ops *ops, const tk_render_options *opt,
			 tk_writer *out, tk_error *err)
{
	if (strcmp(opt->style, "json") != 0)
		return tk_session_filtered_events(path, ops->format, opt, print_text, out, err);
	tk_context_options co = {
	    .flags = TK_CTX_THREADS | TK_CTX_SYMBOLS, .log = opt->log, .log_user = opt->log_user};
	tk_context *ctx;
	tk_status st = tk_context_new(&co, &ctx, err);
	if (st != TK_OK)
		return st;
	st = tk_session_filtered_events_with(path, ops->format, opt, print_json, out,
					     attach_context, ctx, err);
	tk_context_free(ctx);
	return st;
}
