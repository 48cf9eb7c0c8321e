/* The model context's part of a JSON line (context_json.c). */
#ifndef TK_OUTPUT_CONTEXT_JSON_H
#define TK_OUTPUT_CONTEXT_JSON_H

#include "base/writer.h"
#include "model/value_text.h"
#include "tracekit/tracekit.h"

#define TK_CONTEXT_JSON_FRAMES 127 /* perf's default max_stack */

/* ,"comm":..,"process":.. (and "ctx_tid" when the event has no tid of its own). */
void tk_context_json_names(tk_writer *w, const tk_event *ev);
/* ,"callchain":[{"ip","symbol","sym_off","dso"}...], leaf first. */
void tk_context_json_stack(tk_writer *w, const tk_event *ev);

/* One event as a JSON line with the context's keys (tk_event_write_json
 * when the event has no context). */
void tk_context_json_event(tk_writer *w, const tk_event *ev);

#endif
