/* Access to the context's perf model (see ctx_perf_model.h). */
#include "context/context_internal.h"
#include "context/ctx_perf_model.h"

tk_threads *tk_context_perf_model(tk_context *ctx)
{
	return ctx ? ctx->perf : NULL;
}
