/* tk_convert(): every conversion the library makes, routed in one place.
 * A native fast path when one exists for (input format, output format) —
 * a lossless copy, perf -> perf with filters, perf -> DCPI databases,
 * folded stacks, pprof, speedscope, flame graph SVG, elog -> CPEL as
 * c2cpel — else the model pipeline: sources -> time muxer -> filters ->
 * the output format's sink (tk_sink_open). The output appears complete or
 * not at all. Adding an output format = its sink or writer in one file and
 * one line in the output table (convert_outputs.c); a native fast path is
 * one more line in convert.c's routes. */
#ifndef TK_CONVERT_CONVERT_H
#define TK_CONVERT_CONVERT_H

#include <stdbool.h>
#include <stdint.h>

#include "convert/convert_outputs.h"
#include "model/render.h"
#include "tracekit/tracekit.h"

typedef struct tk_convert_options {
	tk_format input_format; /* 0 = detect each input from its content */
	tk_format to;           /* the output format (tk_convert_output_format) */
	tk_render_options opt;  /* filters, limit, all records, order, clock, log */
	tk_sink_options sink;
	bool progress; /* a progress line on stderr while the pipeline runs */
} tk_convert_options;

typedef struct tk_convert_result {
	bool refused;    /* a usage error: nothing was read or written */
	bool model;      /* the model pipeline ran (else a native path) */
	uint64_t events; /* events the pipeline wrote */
} tk_convert_result;

/* Converts inputs into output ("-" = stdout where the format streams).
 * res->refused: the request cannot be made (OUT is an input, a format that
 * cannot stream to stdout, --limit on a profile); err->message says why
 * and err->file is empty. Other errors name the input or output in
 * err->file. res may be NULL. */
tk_status tk_convert(const char *const *inputs, size_t n_inputs, const char *output,
		     const tk_convert_options *o, tk_convert_result *res, tk_error *err);

#endif
