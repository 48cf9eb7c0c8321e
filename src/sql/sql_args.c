/* Event fields as SQL values: the `args` JSON object of the event table
 * (payload members, then the context members the payload does not name,
 * so json_extract(args, '$.x') finds the payload's x) and single values
 * for the per-class tables. */
#ifdef TK_HAVE_SQLITE
#include <string.h>

#include "base/writer.h"
#include "output/model_print.h"
#include "sql/sql_internal.h"

static bool has_member(const tk_value *s, const char *name)
{
	if (!s || s->cls->kind != TK_TYPE_STRUCT)
		return false;
	for (size_t i = 0; i < s->v.list.n && i < s->cls->n_members; i++)
		if (strcmp(s->cls->members[i].name, name) == 0)
			return true;
	return false;
}

static void put_members(tk_writer *w, const tk_value *s, const tk_value *const *shadow,
			size_t n_shadow, bool *first)
{
	if (!s || s->cls->kind != TK_TYPE_STRUCT)
		return;
	for (size_t i = 0; i < s->v.list.n && i < s->cls->n_members; i++) {
		const char *name = s->cls->members[i].name;
		bool hidden = false;
		for (size_t k = 0; k < n_shadow && !hidden; k++)
			hidden = has_member(shadow[k], name);
		if (hidden)
			continue;
		if (!*first)
			tk_put_char(w, ',');
		*first = false;
		tk_put_json_str(w, name, strlen(name));
		tk_put_char(w, ':');
		tk_value_write_json(w, &s->v.list.items[i]);
	}
}

void tk_sql_args_json(tk_writer *w, const tk_event *ev)
{
	bool first = true;
	tk_put_char(w, '{');
	const tk_value *shadow[2] = {ev->payload, ev->context};
	put_members(w, ev->payload, NULL, 0, &first);
	put_members(w, ev->context, shadow, 1, &first);
	put_members(w, ev->stream_context, shadow, 2, &first);
	tk_put_char(w, '}');
}

void tk_sql_result_value(sqlite3_context *ctx, const tk_value *v, tk_writer *scratch)
{
	const tk_field_class *c = v->cls;
	if (!c) {
		sqlite3_result_null(ctx);
		return;
	}
	switch (c->kind) {
	case TK_TYPE_INT:
		/* unsigned 64-bit values above INT64_MAX keep their bits, as
		 * Perfetto stores addresses */
		sqlite3_result_int64(ctx, c->is_signed ? v->v.i : (sqlite3_int64)v->v.u);
		return;
	case TK_TYPE_FLOAT: sqlite3_result_double(ctx, v->v.f); return;
	case TK_TYPE_STRING:
		sqlite3_result_text64(ctx, v->v.str.ptr, v->v.str.len, SQLITE_TRANSIENT,
				      SQLITE_UTF8);
		return;
	case TK_TYPE_BYTES:
		sqlite3_result_blob64(ctx, v->v.str.ptr, v->v.str.len, SQLITE_TRANSIENT);
		return;
	default: break;
	}
	scratch->pos = 0;
	tk_value_write_json(scratch, v);
	size_t len;
	const char *p = tk_writer_data(scratch, &len);
	if (scratch->error)
		sqlite3_result_error_nomem(ctx);
	else
		sqlite3_result_text64(ctx, p, len, SQLITE_TRANSIENT, SQLITE_UTF8);
}

#endif /* TK_HAVE_SQLITE */
