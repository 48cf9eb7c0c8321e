/* Internal entry of the perf -> perf copier for tests and fuzzing. */
#ifndef TK_PERFW_COPY_H
#define TK_PERFW_COPY_H

#include <stddef.h>

#include "base/writer.h"
#include "tracekit/tracekit.h"

/* tk_perf_copy of a perf.data held in memory to a file-mode perf.data in
 * memory (*out: a memory writer, read with tk_writer_data, freed with
 * tk_writer_abort). */
tk_status perfw_copy_memory(const void *data, size_t size, const tk_sink_options *opt,
			    tk_writer **out, tk_error *err);

#endif
