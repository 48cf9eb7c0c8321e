/* The value printer of the model: values and whole events as readable text
 * or as JSON ({"event", "time", "stream", "cpu", "packet_context",
 * "stream_context", "context", "payload"}; enums as {"value", "labels"}).
 * Output goes to a tk_writer; nothing is allocated. */
#ifndef TK_MODEL_VALUE_TEXT_H
#define TK_MODEL_VALUE_TEXT_H

#include "base/writer.h"
#include "tracekit/tracekit.h"

/* Writes one value as JSON (structs as objects, arrays as arrays). */
void tk_value_write_json(tk_writer *w, const tk_value *v);
/* Writes one value as text ({ a = 1, b = "x" }). */
void tk_value_write_text(tk_writer *w, const tk_value *v);

/* The text forms of a value. */
typedef enum tk_value_text_form {
	/* as tk_value_write_text: quoted strings, enum labels, "[ a, b ]" */
	TK_VALUE_TEXT = 0,
	/* a field as one string of a format that has no nested values (the
	 * perf.data writer's tracepoint text fields): strings, chars and char
	 * arrays as their text, "[a, b]", a variant as its option, no enum
	 * labels; nothing past 16 levels of nesting */
	TK_VALUE_PLAIN,
} tk_value_text_form;
void tk_value_write_text_form(tk_writer *w, const tk_value *v, tk_value_text_form form);
/* One event as a JSON line (with the newline). */
void tk_event_write_json(tk_writer *w, const tk_event *ev);
/* Keys a layer above adds to an event's JSON line (the model context's
 * names and stack): each writes ",\"key\":value" pairs; NULL: none. */
typedef struct tk_json_extra {
	void (*after_ids)(tk_writer *w, const tk_event *ev); /* after "tid" */
	void (*at_end)(tk_writer *w, const tk_event *ev);    /* after "payload" */
} tk_json_extra;
void tk_event_write_json_with(tk_writer *w, const tk_event *ev, const tk_json_extra *x);
/* One event as a text line (with the newline). */
void tk_event_write_text(tk_writer *w, const tk_event *ev);

#endif
