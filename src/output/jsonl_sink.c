/* JSON lines sink: one object per event, as `print --format json` writes. */
#include <stdlib.h>

#include "model/source_impl.h"
#include "output/context_json.h"
#include "output/model_print.h"
#include "output/sink_writer.h"
#include "output/text_sinks.h"

typedef struct jsonl_sink {
	tk_sink base;
	tk_writer *w;
} jsonl_sink;

static tk_status jsonl_write(tk_sink *s, const tk_event *ev, tk_error *err)
{
	jsonl_sink *j = (jsonl_sink *)s;
	tk_context_json_event(j->w, ev);
	if (j->w->error)
		return tk_writer_flush(j->w, err); /* names the output and the errno */
	return TK_OK;
}

static tk_status jsonl_close(tk_sink *s, tk_error *err)
{
	jsonl_sink *j = (jsonl_sink *)s;
	tk_status st = tk_writer_commit(j->w, err);
	free(j);
	return st;
}

static void jsonl_abort(tk_sink *s)
{
	jsonl_sink *j = (jsonl_sink *)s;
	tk_writer_abort(j->w);
	free(j);
}

static const tk_sink_ops jsonl_ops = {jsonl_write, jsonl_close, jsonl_abort};

tk_status tk_jsonl_sink_open(const char *path, const tk_trace_info *info,
			     const tk_sink_options *opt, tk_sink **out, tk_error *err)
{
	(void)info;
	(void)opt;
	jsonl_sink *j = calloc(1, sizeof *j);
	if (!j)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	tk_status st = tk_sink_writer_open(path, &j->w, err);
	if (st != TK_OK) {
		free(j);
		return st;
	}
	j->base.ops = &jsonl_ops;
	*out = &j->base;
	return TK_OK;
}
