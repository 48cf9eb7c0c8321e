/* The perf thread/maps model inside a model context (for consumers that
 * walk perf.data samples through the shared context instead of a model of
 * their own: report, folded stacks, pprof, speedscope). */
#ifndef TK_CONTEXT_CTX_PERF_MODEL_H
#define TK_CONTEXT_CTX_PERF_MODEL_H

#include "context/threads_model.h"
#include "tracekit/tracekit.h"

/* ctx's perf model: created with the first perf.data record fed, NULL
 * before (or for other formats). Owned by ctx. */
tk_threads *tk_context_perf_model(tk_context *ctx);

#endif
