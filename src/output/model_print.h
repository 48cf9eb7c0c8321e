/* Generic printer for any tk_source: one line per event, as readable text
 * or as JSON lines ({"event", "time", "stream", "cpu", "packet_context",
 * "stream_context", "context", "payload"}; enums as {"value", "labels"}). */
#ifndef TK_OUTPUT_MODEL_PRINT_H
#define TK_OUTPUT_MODEL_PRINT_H

#include "base/writer.h"
#include "model/format_ops.h"

/* Writes one value as JSON (structs as objects, arrays as arrays). */
void tk_value_write_json(tk_writer *w, const tk_value *v);
/* Writes one value as text ({ a = 1, b = "x" }). */
void tk_value_write_text(tk_writer *w, const tk_value *v);
/* One event as a JSON line (with the newline). */
void tk_event_write_json(tk_writer *w, const tk_event *ev);
/* One event as a text line (with the newline). */
void tk_event_write_text(tk_writer *w, const tk_event *ev);

tk_status tk_model_print(const char *path, const tk_format_ops *ops, const tk_render_options *opt,
			 tk_writer *out, tk_error *err);

#endif
