/* Generic model printer; see model_print.h. */
#include <string.h>

#include "model/filter.h"
#include "output/context_json.h"
#include "output/model_print.h"

tk_status tk_model_print(const char *path, const tk_format_ops *ops, const tk_render_options *opt,
			 tk_writer *out, tk_error *err)
{
	tk_open_options oo = {
	    .format = ops->format,
	    .all_records = opt->all_records,
	    .raw_order = opt->raw_order,
	    .wall_clock = opt->wall_clock,
	    .log = opt->log,
	    .log_user = opt->log_user,
	};
	tk_filter filter = tk_render_filter(opt);
	bool json = strcmp(opt->style, "json") == 0;
	tk_source *src;
	tk_status st = ops->source_open(path, &oo, &src, err);
	if (st != TK_OK)
		return st;
	/* JSON lines name threads and symbolize stacks from the model context */
	tk_context *ctx = NULL;
	if (json) {
		tk_context_options co = {.flags = TK_CTX_THREADS | TK_CTX_SYMBOLS,
					 .log = opt->log,
					 .log_user = opt->log_user};
		if ((st = tk_context_new(&co, &ctx, err)) != TK_OK) {
			tk_source_close(src);
			return st;
		}
		tk_source_set_context(src, ctx);
	}
	uint64_t n = 0;
	const tk_event *ev;
	while ((st = tk_source_next(src, &ev, err)) == TK_OK) {
		if (!tk_filter_match(&filter, ev))
			continue;
		if (json)
			tk_context_json_event(out, ev);
		else
			tk_event_write_text(out, ev);
		if (opt->limit && ++n >= opt->limit)
			break;
	}
	tk_source_close(src);
	tk_context_free(ctx);
	return st == TK_END ? TK_OK : st;
}
