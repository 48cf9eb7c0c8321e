/* The model context as a session observer (tk_context_observe): the
 * session hands it every item before its consumers see it. */
#include "context/context_internal.h"

tk_status tk_context_observe(void *ctx, tk_session *s, const tk_session_item *item, tk_error *err)
{
	(void)s;
	switch (item->kind) {
	case TK_SESSION_PERF_RECORD:
		return tk_context_feed_perf(ctx, item->perf_file, item->perf, err);
	case TK_SESSION_EVENT: return tk_context_feed_event(ctx, item->event, err);
	default: return TK_OK;
	}
}
