/* Values and events as text and as JSON: the one value printer every
 * renderer and sink uses (generic printer, JSON lines, Chrome JSON, the
 * CPEL and perf.data sinks). See value_text.h. */
#include <string.h>

#include "model/value_text.h"

static const tk_enum_mapping *next_label(const tk_field_class *c, uint64_t raw, size_t *i)
{
	for (; *i < c->n_mappings; (*i)++) {
		const tk_enum_mapping *m = &c->mappings[*i];
		bool hit = c->is_signed
			       ? (int64_t)raw >= (int64_t)m->lo && (int64_t)raw <= (int64_t)m->hi
			       : raw >= m->lo && raw <= m->hi;
		if (hit) {
			(*i)++;
			return m;
		}
	}
	return NULL;
}

static void put_int(tk_writer *w, const tk_value *v, bool json)
{
	const tk_field_class *c = v->cls;
	if (json) {
		/* hex integers are addresses: "0x..." strings; the others are
		 * numbers while a double holds them exactly, else strings */
		if (c && c->base == 16 && !c->is_signed)
			tk_put_json_hex(w, v->v.u);
		else if (c && c->is_signed)
			tk_put_json_i64(w, v->v.i);
		else
			tk_put_json_u64(w, v->v.u);
	} else if (c && c->base == 16) {
		tk_put_str(w, "0x");
		tk_put_hex(w, v->v.u);
	} else if (c && c->is_signed) {
		tk_put_i64(w, v->v.i);
	} else {
		tk_put_u64(w, v->v.u);
	}
}

void tk_value_write_json(tk_writer *w, const tk_value *v)
{
	const tk_field_class *c = v->cls;
	if (!c) {
		tk_put_str(w, "null");
		return;
	}
	switch (c->kind) {
	case TK_TYPE_INT:
		if (c->mappings) {
			tk_put_str(w, "{\"value\":");
			put_int(w, v, true);
			tk_put_str(w, ",\"labels\":[");
			size_t i = 0, n = 0;
			const tk_enum_mapping *m;
			while ((m = next_label(c, v->v.u, &i)) != NULL) {
				if (n++)
					tk_put_char(w, ',');
				tk_put_json_str(w, m->label, strlen(m->label));
			}
			tk_put_str(w, "]}");
		} else {
			put_int(w, v, true);
		}
		break;
	case TK_TYPE_FLOAT:
		if (v->v.f != v->v.f || v->v.f - v->v.f != 0)
			tk_put_str(w, "null"); /* NaN and infinities are not JSON */
		else
			tk_put_double(w, v->v.f, "%.17g");
		break;
	case TK_TYPE_STRING: tk_put_json_str(w, v->v.str.ptr, v->v.str.len); break;
	case TK_TYPE_BYTES:
		tk_put_char(w, '"');
		for (size_t i = 0; i < v->v.str.len; i++)
			tk_put_hex_pad(w, (uint8_t)v->v.str.ptr[i], 2);
		tk_put_char(w, '"');
		break;
	case TK_TYPE_ARRAY:
	case TK_TYPE_SEQUENCE:
		tk_put_char(w, '[');
		for (size_t i = 0; i < v->v.list.n; i++) {
			if (i)
				tk_put_char(w, ',');
			tk_value_write_json(w, &v->v.list.items[i]);
		}
		tk_put_char(w, ']');
		break;
	case TK_TYPE_STRUCT:
		tk_put_char(w, '{');
		for (size_t i = 0; i < v->v.list.n && i < c->n_members; i++) {
			if (i)
				tk_put_char(w, ',');
			const char *name = c->members[i].name;
			tk_put_json_str(w, name, strlen(name));
			tk_put_char(w, ':');
			tk_value_write_json(w, &v->v.list.items[i]);
		}
		tk_put_char(w, '}');
		break;
	case TK_TYPE_VARIANT:
		if (v->v.list.n && v->v.list.index < c->n_members) {
			const char *name = c->members[v->v.list.index].name;
			tk_put_char(w, '{');
			tk_put_json_str(w, name, strlen(name));
			tk_put_char(w, ':');
			tk_value_write_json(w, v->v.list.items);
			tk_put_char(w, '}');
		} else {
			tk_put_str(w, "null");
		}
		break;
	}
}

/* A string in the text style stays on its line and inside its quotes: C
 * escapes for quotes, backslashes and control bytes; UTF-8 passes. */
static void put_escaped(tk_writer *w, const char *s, size_t n)
{
	size_t start = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7f)
			continue;
		tk_put_mem(w, s + start, i - start);
		start = i + 1;
		char e[4] = {'\\', 0, 0, 0};
		size_t k = 2;
		switch (c) {
		case '"': e[1] = '"'; break;
		case '\\': e[1] = '\\'; break;
		case '\n': e[1] = 'n'; break;
		case '\t': e[1] = 't'; break;
		case '\r': e[1] = 'r'; break;
		default:
			e[1] = 'x';
			e[2] = "0123456789abcdef"[c >> 4];
			e[3] = "0123456789abcdef"[c & 15];
			k = 4;
		}
		tk_put_mem(w, e, k);
	}
	tk_put_mem(w, s + start, n - start);
}

static void put_text_model(tk_writer *w, const tk_value *v, int depth);
static void put_text_plain(tk_writer *w, const tk_value *v, int depth);

/* A member or element: the model form has no depth bound. */
static inline __attribute__((always_inline)) void put_child(tk_writer *w, const tk_value *v,
							    bool plain, int depth)
{
	if (plain)
		put_text_plain(w, v, depth + 1);
	else
		put_text_model(w, v, 0);
}

/* Both text forms in one walk (value_text.h), compiled once per form (the
 * generic printer's per-value cost stays that of a printer of its own);
 * depth bounds the plain form, which sinks write from values they did not
 * build. */
static inline __attribute__((always_inline)) void put_text(tk_writer *w, const tk_value *v,
							   bool plain, int depth)
{
	if (plain && (!v || !v->cls || depth > 16))
		return;
	const tk_field_class *c = v->cls;
	if (!c) {
		tk_put_str(w, "?");
		return;
	}
	switch (c->kind) {
	case TK_TYPE_INT: {
		if (plain && c->is_char) {
			tk_put_char(w, (char)v->v.u);
		} else if (!plain && c->mappings) {
			size_t i = 0;
			const tk_enum_mapping *m = next_label(c, v->v.u, &i);
			tk_put_str(w, "( ");
			if (m) {
				tk_put_char(w, '"');
				tk_put_str(w, m->label);
				tk_put_str(w, "\" : ");
			}
			tk_put_str(w, "container = ");
			put_int(w, v, false);
			tk_put_str(w, " )");
		} else {
			put_int(w, v, false);
		}
		break;
	}
	case TK_TYPE_FLOAT: tk_put_double(w, v->v.f, "%g"); break;
	case TK_TYPE_STRING:
		if (plain) {
			if (v->v.str.len)
				tk_put_mem(w, v->v.str.ptr, v->v.str.len);
			break;
		}
		tk_put_char(w, '"');
		put_escaped(w, v->v.str.ptr, v->v.str.len);
		tk_put_char(w, '"');
		break;
	case TK_TYPE_BYTES:
		for (size_t i = 0; i < v->v.str.len; i++)
			tk_put_hex_pad(w, (uint8_t)v->v.str.ptr[i], 2);
		break;
	case TK_TYPE_ARRAY:
	case TK_TYPE_SEQUENCE:
		if (plain && c->element && c->element->kind == TK_TYPE_INT && c->element->is_char) {
			for (size_t i = 0; i < v->v.list.n && v->v.list.items[i].v.u; i++)
				tk_put_char(w, (char)v->v.list.items[i].v.u);
			break;
		}
		tk_put_str(w, plain ? "[" : "[ ");
		for (size_t i = 0; i < v->v.list.n; i++) {
			if (i)
				tk_put_str(w, ", ");
			put_child(w, &v->v.list.items[i], plain, depth);
		}
		tk_put_str(w, plain ? "]" : " ]");
		break;
	case TK_TYPE_STRUCT:
		tk_put_str(w, "{ ");
		for (size_t i = 0; i < v->v.list.n && i < c->n_members; i++) {
			if (i)
				tk_put_str(w, ", ");
			tk_put_str(w, !plain || c->members[i].name ? c->members[i].name : "");
			tk_put_str(w, " = ");
			put_child(w, &v->v.list.items[i], plain, depth);
		}
		tk_put_str(w, " }");
		break;
	case TK_TYPE_VARIANT:
		if (plain) {
			put_child(w, v->v.list.items, plain, depth);
		} else if (v->v.list.n && v->v.list.index < c->n_members) {
			tk_put_str(w, "{ ");
			tk_put_str(w, c->members[v->v.list.index].name);
			tk_put_str(w, " = ");
			put_child(w, v->v.list.items, plain, depth);
			tk_put_str(w, " }");
		}
		break;
	}
}

static void put_text_model(tk_writer *w, const tk_value *v, int depth)
{
	put_text(w, v, false, depth);
}

static void put_text_plain(tk_writer *w, const tk_value *v, int depth)
{
	put_text(w, v, true, depth);
}

void tk_value_write_text(tk_writer *w, const tk_value *v)
{
	put_text_model(w, v, 0);
}

void tk_value_write_text_form(tk_writer *w, const tk_value *v, tk_value_text_form form)
{
	(form == TK_VALUE_PLAIN ? put_text_plain : put_text_model)(w, v, 0);
}

static void json_scope(tk_writer *w, const char *key, const tk_value *v)
{
	if (!v)
		return;
	tk_put_str(w, ",\"");
	tk_put_str(w, key);
	tk_put_str(w, "\":");
	tk_value_write_json(w, v);
}

void tk_event_write_json(tk_writer *w, const tk_event *ev)
{
	tk_event_write_json_with(w, ev, NULL);
}

void tk_event_write_json_with(tk_writer *w, const tk_event *ev, const tk_json_extra *x)
{
	const char *name = ev->cls && ev->cls->name ? ev->cls->name : "";
	tk_put_str(w, "{\"event\":");
	tk_put_json_str(w, name, strlen(name));
	if (ev->has_time) {
		tk_put_str(w, ",\"time\":");
		tk_put_json_u64(w, ev->time_ns);
	}
	tk_put_str(w, ",\"stream\":");
	tk_put_json_u64(w, ev->stream_id);
	if (ev->cpu != TK_CPU_NONE) {
		tk_put_str(w, ",\"cpu\":");
		tk_put_json_i64(w, ev->cpu);
	}
	if (ev->pid != TK_PID_NONE) {
		tk_put_str(w, ",\"pid\":");
		tk_put_json_i64(w, ev->pid);
	}
	if (ev->tid != TK_PID_NONE) {
		tk_put_str(w, ",\"tid\":");
		tk_put_json_i64(w, ev->tid);
	}
	if (x && x->after_ids)
		x->after_ids(w, ev);
	json_scope(w, "packet_context", ev->packet_context);
	json_scope(w, "stream_context", ev->stream_context);
	json_scope(w, "context", ev->context);
	json_scope(w, "payload", ev->payload);
	if (x && x->at_end)
		x->at_end(w, ev);
	tk_put_str(w, "}\n");
}

void tk_event_write_text(tk_writer *w, const tk_event *ev)
{
	if (ev->has_time) {
		tk_put_u64(w, ev->time_ns / 1000000000u);
		tk_put_char(w, '.');
		tk_put_u64_pad(w, ev->time_ns % 1000000000u, 9, '0');
	} else {
		tk_put_str(w, "-");
	}
	if (ev->cpu != TK_CPU_NONE) {
		tk_put_str(w, " [");
		tk_put_u64_pad(w, (uint64_t)ev->cpu, 3, '0');
		tk_put_char(w, ']');
	}
	if (ev->pid != TK_PID_NONE) {
		tk_put_char(w, ' ');
		tk_put_i64(w, ev->pid);
		tk_put_char(w, '/');
		tk_put_i64(w, ev->tid);
	}
	tk_put_char(w, ' ');
	tk_put_str(w, ev->cls && ev->cls->name ? ev->cls->name : "?");
	tk_put_char(w, ':');
	const tk_value *scopes[] = {ev->packet_context, ev->stream_context, ev->context,
				    ev->payload};
	for (size_t i = 0; i < 4; i++) {
		if (!scopes[i])
			continue;
		tk_put_char(w, ' ');
		tk_value_write_text(w, scopes[i]);
	}
	tk_put_char(w, '\n');
}
