/* Generic printer for any tk_source: one line per event, as readable text
 * or as JSON lines (model/value_text.h). */
#ifndef TK_OUTPUT_MODEL_PRINT_H
#define TK_OUTPUT_MODEL_PRINT_H

#include "base/writer.h"
#include "model/format_ops.h"
#include "model/render.h"
#include "model/value_text.h"

tk_status tk_model_print(const char *path, const tk_format_ops *ops, const tk_render_options *opt,
			 tk_writer *out, tk_error *err);

#endif
