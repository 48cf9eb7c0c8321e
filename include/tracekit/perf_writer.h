/* perf.data writer: lossless perf -> perf copies (file or pipe mode, either
 * byte order, optional zstd compression, optional filters) and a model sink
 * that turns any trace into tracepoint-style perf.data.
 *
 * Not meant to be included alone: include <tracekit/tracekit.h>.
 *
 * Output files are written under a temporary name beside `out` and renamed
 * on success, so they appear complete or not at all; "-" writes pipe mode
 * to stdout. Options (tk_sink_options, may be NULL):
 *   byte_order  "big", "little", "native" or NULL: native = the input's
 *               order for copies, the host's for the sink;
 *   compress    write COMPRESSED records (one zstd stream, flushed per
 *               batch, HEADER_COMPRESSED feature) as `perf record -z` does;
 *   log         warnings (features or records whose layout is unknown and
 *               were kept byte for byte in a byte-swapped copy, ...).
 * Not thread-safe; independent calls may run in parallel. */
#ifndef TRACEKIT_PERF_WRITER_H
#define TRACEKIT_PERF_WRITER_H

#include "model.h"
#include "sink.h"
#include "status.h"

struct tk_filter; /* src/model/filter.h */

/* Copies every record and feature of perf.data `in` (file, pipe "-" or
 * --threads directory) to `out`. COMPRESSED input records are expanded;
 * they are compressed again only with opt->compress. */
tk_status tk_perf_copy(const char *in, const char *out, const tk_sink_options *opt, tk_error *err);

/* As tk_perf_copy, keeping only the samples that match `f` (time range,
 * event name globs, pid, tid, cpu; NULL or empty = all) and every
 * non-sample record, so that tools can still resolve the kept samples. */
tk_status tk_perf_copy_filtered(const char *in, const char *out, const tk_sink_options *opt,
				const struct tk_filter *f, tk_error *err);

/* A sink writing model events as perf.data (file mode only): each event
 * class becomes a PERF_TYPE_TRACEPOINT attr with a synthesized tracefs
 * format (system "tracekit") in HEADER_TRACING_DATA, each event a sample
 * with TID|TIME|ID|CPU|RAW whose RAW holds the event's fields. Classes may
 * appear while writing; attrs and features are written at close. */
tk_status tk_perf_sink_open(const char *path, const tk_trace_info *info, const tk_sink_options *opt,
			    tk_sink **out, tk_error *err);

#endif
