/* Dispatch of the source and sink calls to their format's ops, and the
 * event-class list every source publishes. */
#include <stdlib.h>

#include "model/source_impl.h"

tk_status tk_source_next(tk_source *src, const tk_event **out, tk_error *err)
{
	if (tk_interrupt_pending())
		return tk_error_set(err, TK_ERR_INTERRUPTED, TK_NO_OFFSET, "interrupted");
	tk_status st = src->ops->next(src, out, err);
	if (st != TK_OK)
		return st;
	/* the event is the source's own (mutable) storage, returned const */
	((tk_event *)*out)->model_ctx = src->obs.ctx;
	if (src->obs.on_event)
		st = src->obs.on_event(src->obs.user, *out, err);
	return st;
}

const tk_trace_info *tk_source_info(const tk_source *src)
{
	return &src->info;
}

void tk_source_close(tk_source *src)
{
	if (src)
		src->ops->close(src);
}

tk_status tk_sink_write(tk_sink *sink, const tk_event *ev, tk_error *err)
{
	return sink->ops->write(sink, ev, err);
}

tk_status tk_sink_close(tk_sink *sink, tk_error *err)
{
	return sink->ops->close(sink, err);
}

void tk_sink_abort(tk_sink *sink)
{
	if (sink)
		sink->ops->abort(sink);
}

bool tk_source_add_class(tk_source *src, const tk_event_class *c)
{
	tk_trace_info *info = &src->info;
	if (info->n_event_classes == src->classes_cap) {
		size_t cap = src->classes_cap ? src->classes_cap * 2 : 16;
		const tk_event_class **nl = realloc((void *)info->event_classes, cap * sizeof *nl);
		if (!nl)
			return false;
		info->event_classes = nl;
		src->classes_cap = cap;
	}
	((const tk_event_class **)info->event_classes)[info->n_event_classes++] = c;
	return true;
}

void tk_source_classes_free(tk_source *src)
{
	free((void *)src->info.event_classes);
	src->info.event_classes = NULL;
	src->info.n_event_classes = 0;
	src->classes_cap = 0;
}
