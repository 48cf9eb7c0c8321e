/* The "tracekit" SQLite module: argument parsing, the per-connection
 * registry of inputs, dispatch to the event and derived tables, and
 * tracekit_attach(). See include/tracekit/sql.h. */
#ifdef TK_HAVE_SQLITE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sql/sql_internal.h"

/* ---- arguments ---- */

/* A module argument without its SQL quotes ('x', "x", `x`, [x]); '' inside
 * single quotes is one quote. sqlite3_malloc'd. */
static char *unquote(const char *a)
{
	size_t n = strlen(a);
	while (n && isspace((unsigned char)*a)) {
		a++;
		n--;
	}
	while (n && isspace((unsigned char)a[n - 1]))
		n--;
	char *out = sqlite3_malloc64(n + 1);
	if (!out)
		return NULL;
	char q = n >= 2 ? a[0] : 0;
	char close = q == '[' ? ']' : q;
	if ((q == '\'' || q == '"' || q == '`' || q == '[') && a[n - 1] == close) {
		size_t k = 0;
		for (size_t i = 1; i + 1 < n; i++) {
			out[k++] = a[i];
			if (a[i] == q && q != '[' && a[i + 1] == q)
				i++;
		}
		out[k] = '\0';
	} else {
		memcpy(out, a, n);
		out[n] = '\0';
	}
	return out;
}

static void vtab_free(tk_sql_vtab *vt)
{
	if (!vt)
		return;
	tk_sql_strings_free(&vt->names);
	for (size_t i = 0; i < vt->n_members; i++)
		sqlite3_free(vt->members[i]);
	sqlite3_free(vt->members);
	sqlite3_free(vt->class_name);
	sqlite3_free(vt->inputs);
	sqlite3_free(vt);
}

/* Column names of a class table: its payload members (then its event
 * context's), made unique against the fixed columns and each other. */
static int class_members(tk_sql_vtab *vt, char **err_msg)
{
	/* The classes come from a source kept open by the connection for the
	 * last input asked: tk_sql_attach creates a table per class of one
	 * input in a row, and opening a trace per class is slow. */
	tk_sql_ctx *ctx = vt->ctx;
	const char *path = vt->inputs[0]->path;
	if (!ctx->class_src || strcmp(ctx->class_path, path) != 0) {
		tk_source_close(ctx->class_src);
		ctx->class_src = NULL;
		free(ctx->class_path);
		ctx->class_path = strdup(path);
		if (!ctx->class_path)
			return SQLITE_NOMEM;
		tk_open_options oo = {.log = ctx->opt.log, .log_user = ctx->opt.log_user};
		tk_error err;
		tk_error_clear(&err);
		if (tk_source_open(path, &oo, &ctx->class_src, &err) != TK_OK) {
			ctx->class_src = NULL;
			*err_msg = tk_sql_error_text(&err, path);
			return SQLITE_ERROR;
		}
	}
	const tk_trace_info *ti = tk_source_info(ctx->class_src);
	const tk_event_class *cls = NULL;
	for (size_t i = 0; i < ti->n_event_classes && !cls; i++) {
		const tk_event_class *ec = ti->event_classes[i];
		if (ec->name && strcmp(ec->name, vt->class_name) == 0 &&
		    (!vt->want_class_id ||
		     (ec->id == vt->class_id && ec->stream_class_id == vt->class_stream_id)))
			cls = ec;
	}
	int rc = SQLITE_OK;
	if (!cls) {
		*err_msg = sqlite3_mprintf("%s: no event class '%s'", path, vt->class_name);
		rc = SQLITE_ERROR;
		goto out;
	}
	vt->class_id = cls->id;
	vt->class_stream_id = cls->stream_class_id;
	const tk_field_class *p = cls->payload;
	size_t n = p && p->kind == TK_TYPE_STRUCT ? p->n_members : 0;
	vt->members = sqlite3_malloc64((n + 1) * sizeof *vt->members);
	if (!vt->members) {
		rc = SQLITE_NOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		const char *name = p->members[i].name ? p->members[i].name : "";
		char *col = sqlite3_mprintf("%s", name);
		/* ts, cpu, pid, tid, file and earlier members keep their names */
		static const char *const fixed[] = {"ts", "cpu", "pid", "tid", "file"};
		for (int again = 1; col && again;) {
			again = 0;
			for (size_t k = 0; k < 5 && !again; k++)
				again = sqlite3_stricmp(col, fixed[k]) == 0;
			for (size_t k = 0; k < vt->n_members && !again; k++)
				again = sqlite3_stricmp(col, vt->members[k]) == 0;
			if (again) {
				char *c2 = sqlite3_mprintf("%s_", col);
				sqlite3_free(col);
				col = c2;
			}
		}
		if (!col) {
			rc = SQLITE_NOMEM;
			goto out;
		}
		vt->members[vt->n_members++] = col;
	}
out:
	return rc;
}

static char *create_sql(const tk_sql_vtab *vt)
{
	if (vt->kind == TK_SQL_EVENT)
		return sqlite3_mprintf("CREATE TABLE x(ts INTEGER, dur INTEGER, cpu INTEGER, pid "
				       "INTEGER, tid INTEGER, name TEXT, category TEXT, stream "
				       "INTEGER, args TEXT, file TEXT HIDDEN)");
	if (vt->kind == TK_SQL_CLASS) {
		sqlite3_str *s = sqlite3_str_new(NULL);
		sqlite3_str_appendall(s, "CREATE TABLE x(ts INTEGER, cpu INTEGER, pid INTEGER, "
					 "tid INTEGER");
		for (size_t i = 0; i < vt->n_members; i++)
			sqlite3_str_appendf(s, ", \"%w\"", vt->members[i]);
		sqlite3_str_appendall(s, ", file TEXT HIDDEN)");
		return sqlite3_str_finish(s);
	}
	return sqlite3_mprintf("CREATE TABLE x(%s, file TEXT HIDDEN)",
			       tk_sql_table_def_of(vt->kind)->columns);
}

static int vt_create(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
		     char **err_msg)
{
	tk_sql_ctx *ctx = aux;
	tk_sql_vtab *vt = sqlite3_malloc64(sizeof *vt);
	if (!vt)
		return SQLITE_NOMEM;
	memset(vt, 0, sizeof *vt);
	vt->ctx = ctx;
	vt->kind = TK_SQL_EVENT;
	tk_sql_strings_init(&vt->names);
	int rc = SQLITE_OK;
	vt->inputs = sqlite3_malloc64((size_t)(argc > 3 ? argc - 3 : 1) * sizeof *vt->inputs);
	if (!vt->inputs) {
		rc = SQLITE_NOMEM;
		goto fail;
	}
	for (int i = 3; i < argc; i++) {
		char *a = unquote(argv[i]);
		if (!a) {
			rc = SQLITE_NOMEM;
			goto fail;
		}
		if (strncmp(a, "table=", 6) == 0) {
			int k = tk_sql_kind_of(a + 6);
			if (k < 0) {
				*err_msg = sqlite3_mprintf("tracekit: unknown table '%s'", a + 6);
				sqlite3_free(a);
				rc = SQLITE_ERROR;
				goto fail;
			}
			vt->kind = (tk_sql_kind)k;
		} else if (strncmp(a, "class_id=", 9) == 0) {
			unsigned long long sid, id;
			if (sscanf(a + 9, "%llu/%llu", &sid, &id) == 2) {
				vt->want_class_id = true;
				vt->class_stream_id = sid;
				vt->class_id = id;
			}
		} else if (strncmp(a, "class=", 6) == 0) {
			vt->kind = TK_SQL_CLASS;
			sqlite3_free(vt->class_name);
			vt->class_name = sqlite3_mprintf("%s", a + 6);
		} else {
			tk_sql_input *in = tk_sql_input_get(ctx, a);
			if (!in) {
				sqlite3_free(a);
				rc = SQLITE_NOMEM;
				goto fail;
			}
			vt->inputs[vt->n_inputs++] = in;
			struct stat sb;
			if (stat(a, &sb) == 0)
				vt->file_bytes += S_ISDIR(sb.st_mode) ? 1e8 : (double)sb.st_size;
		}
		sqlite3_free(a);
	}
	vt->seekable = vt->n_inputs > 0;
	for (size_t i = 0; i < vt->n_inputs && vt->seekable; i++) {
		tk_error derr;
		vt->seekable = tk_detect_format(vt->inputs[i]->path, &derr) == TK_FORMAT_CTF;
	}
	if (vt->n_inputs == 0) {
		*err_msg = sqlite3_mprintf("tracekit: usage: USING tracekit('FILE' [, 'FILE'...] "
					   "[, 'table=NAME' | 'class=EVENT'])");
		rc = SQLITE_ERROR;
		goto fail;
	}
	if (vt->kind == TK_SQL_CLASS) {
		if (!vt->class_name) {
			rc = SQLITE_NOMEM;
			goto fail;
		}
		if ((rc = class_members(vt, err_msg)) != SQLITE_OK)
			goto fail;
	}
	char *sql = create_sql(vt);
	if (!sql) {
		rc = SQLITE_NOMEM;
		goto fail;
	}
	rc = sqlite3_declare_vtab(db, sql);
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		goto fail;
	*out = &vt->base;
	return SQLITE_OK;
fail:
	vtab_free(vt);
	return rc;
}

static int vt_disconnect(sqlite3_vtab *base)
{
	vtab_free((tk_sql_vtab *)base);
	return SQLITE_OK;
}

static bool is_event_kind(const tk_sql_vtab *vt)
{
	return vt->kind == TK_SQL_EVENT || vt->kind == TK_SQL_CLASS;
}

static int vt_best_index(sqlite3_vtab *base, sqlite3_index_info *info)
{
	tk_sql_vtab *vt = (tk_sql_vtab *)base;
	return is_event_kind(vt) ? tk_sql_event_best_index(vt, info)
				 : tk_sql_derived_best_index(vt, info);
}

static int vt_open(sqlite3_vtab *base, sqlite3_vtab_cursor **out)
{
	tk_sql_vtab *vt = (tk_sql_vtab *)base;
	return is_event_kind(vt) ? tk_sql_event_open(vt, out) : tk_sql_derived_open(vt, out);
}

#define OPS(c) (((tk_sql_cursor *)(c))->ops)

static int cur_close(sqlite3_vtab_cursor *c)
{
	return OPS(c)->close(c);
}

static int cur_filter(sqlite3_vtab_cursor *c, int idx, const char *idx_str, int argc,
		      sqlite3_value **argv)
{
	return OPS(c)->filter(c, idx, idx_str, argc, argv);
}

static int cur_next(sqlite3_vtab_cursor *c)
{
	return OPS(c)->next(c);
}

static int cur_eof(sqlite3_vtab_cursor *c)
{
	return OPS(c)->eof(c);
}

static int cur_column(sqlite3_vtab_cursor *c, sqlite3_context *ctx, int col)
{
	return OPS(c)->column(c, ctx, col);
}

static int cur_rowid(sqlite3_vtab_cursor *c, sqlite3_int64 *rowid)
{
	return OPS(c)->rowid(c, rowid);
}

static const sqlite3_module tracekit_module = {
    .iVersion = 1,
    .xCreate = vt_create,
    .xConnect = vt_create,
    .xBestIndex = vt_best_index,
    .xDisconnect = vt_disconnect,
    .xDestroy = vt_disconnect,
    .xOpen = vt_open,
    .xClose = cur_close,
    .xFilter = cur_filter,
    .xNext = cur_next,
    .xEof = cur_eof,
    .xColumn = cur_column,
    .xRowid = cur_rowid,
};

/* ---- registration and tracekit_attach() ---- */

static void ctx_free(void *p)
{
	tk_sql_ctx *ctx = p;
	for (size_t i = 0; i < ctx->inputs.n; i++)
		tk_sql_input_free(*TK_SQL_AT(ctx->inputs, tk_sql_input *, i));
	free(ctx->inputs.v);
	tk_source_close(ctx->class_src);
	free(ctx->class_path);
	free(ctx);
}

/* Table name of a class: event_ + the name with every other character
 * than [A-Za-z0-9_] as '_'. */
static char *class_table_name(const char *prefix, const char *cls)
{
	char *name = sqlite3_mprintf("%sevent_%s", prefix, cls);
	if (!name)
		return NULL;
	for (char *p = name + strlen(prefix) + 6; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			*p = '_';
	return name;
}

static tk_status attach_fail(sqlite3 *db, tk_error *err, const char *what)
{
	return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "%s: %s", what, sqlite3_errmsg(db));
}

tk_status tk_sql_attach(sqlite3 *db, const char *const *paths, size_t n_paths, const char *prefix,
			tk_error *err)
{
	tk_error_clear(err);
	if (!prefix)
		prefix = "";
	sqlite3_str *files = sqlite3_str_new(db);
	for (size_t i = 0; i < n_paths; i++)
		sqlite3_str_appendf(files, "%s%Q", i ? ", " : "", paths[i]);
	char *file_args = sqlite3_str_finish(files);
	if (!file_args)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	tk_status st = TK_OK;
	for (int k = 0; k < TK_SQL_N_DERIVED && st == TK_OK; k++) {
		const char *name = k == TK_SQL_EVENT ? "event" : tk_sql_table_def_of(k)->name;
		char *sql = sqlite3_mprintf(
		    "CREATE VIRTUAL TABLE temp.\"%w%w\" USING tracekit(%s, 'table=%s')", prefix,
		    name, file_args, name);
		char *msg = NULL;
		if (!sql)
			st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		else if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
			st = tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "%s",
					  msg ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		sqlite3_free(sql);
	}
	/* One table per event class of the first input that has classes. */
	for (size_t i = 0; i < n_paths && st == TK_OK; i++) {
		tk_source *src;
		tk_open_options oo = {0};
		if ((st = tk_source_open(paths[i], &oo, &src, err)) != TK_OK)
			break;
		const tk_trace_info *ti = tk_source_info(src);
		for (size_t c = 0; c < ti->n_event_classes && st == TK_OK; c++) {
			const char *cn = ti->event_classes[c]->name;
			if (!cn || !*cn)
				continue;
			/* a name two classes share: the later ones get their
			 * stream class and id in the table name; the same class
			 * again (several traces of one session) is one table */
			const tk_event_class *ec = ti->event_classes[c];
			bool dup = false, same = false;
			for (size_t k = 0; k < c && !same; k++) {
				const tk_event_class *o = ti->event_classes[k];
				if (!o->name || strcmp(o->name, cn) != 0)
					continue;
				same = o->id == ec->id && o->stream_class_id == ec->stream_class_id;
				dup = true;
			}
			if (same)
				continue;
			char *table = class_table_name(prefix, cn);
			if (table && dup) {
				char *t2 = sqlite3_mprintf("%s_%llu_%llu", table,
							   (unsigned long long)ec->stream_class_id,
							   (unsigned long long)ec->id);
				sqlite3_free(table);
				table = t2;
			}
			char *carg = sqlite3_mprintf("class=%s", cn);
			char *idarg = dup ? sqlite3_mprintf(", 'class_id=%llu/%llu'",
							    (unsigned long long)ec->stream_class_id,
							    (unsigned long long)ec->id)
					  : sqlite3_mprintf("%s", "");
			char *sql = table && carg && idarg
					? sqlite3_mprintf("CREATE VIRTUAL TABLE IF NOT EXISTS "
							  "temp.\"%w\" USING tracekit(%Q, %Q%s)",
							  table, paths[i], carg, idarg)
					: NULL;
			sqlite3_free(carg);
			sqlite3_free(idarg);
			if (!sql)
				st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
			else if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
				st = attach_fail(db, err, table);
			sqlite3_free(sql);
			sqlite3_free(table);
		}
		size_t n_classes = ti->n_event_classes;
		tk_source_close(src);
		if (n_classes)
			break;
	}
	sqlite3_free(file_args);
	return st;
}

static void attach_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *path = (const char *)sqlite3_value_text(argv[0]);
	const char *prefix = argc > 1 ? (const char *)sqlite3_value_text(argv[1]) : "";
	if (!path) {
		sqlite3_result_error(ctx, "tracekit_attach(path [, prefix]): path is NULL", -1);
		return;
	}
	tk_error err;
	if (tk_sql_attach(sqlite3_context_db_handle(ctx), &path, 1, prefix, &err) != TK_OK) {
		char *msg = tk_sql_error_text(&err, NULL);
		sqlite3_result_error(ctx, msg ? msg : "out of memory", -1);
		sqlite3_free(msg);
		return;
	}
	sqlite3_result_int(ctx, TK_SQL_N_DERIVED);
}

int tk_sql_register(sqlite3 *db, const tk_sql_options *opt)
{
	tk_sql_ctx *ctx = calloc(1, sizeof *ctx);
	if (!ctx)
		return SQLITE_NOMEM;
	if (opt)
		ctx->opt = *opt;
	int rc = sqlite3_create_module_v2(db, "tracekit", &tracekit_module, ctx, ctx_free);
	if (rc != SQLITE_OK)
		return rc;
	/* Not SQLITE_DETERMINISTIC: it creates tables. */
	rc = sqlite3_create_function(db, "tracekit_attach", 1, SQLITE_UTF8, NULL, attach_fn, NULL,
				     NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "tracekit_attach", 2, SQLITE_UTF8, NULL, attach_fn,
					     NULL, NULL);
	return rc;
}

#endif /* TK_HAVE_SQLITE */
