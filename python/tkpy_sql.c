/* tracekit.sql(): one SQL query over the tables of src/sql (the schema of
 * `tracekit sql`), on a private in-memory SQLite connection that lives for
 * the call. Rows come back as tuples of int, float, str, bytes or None,
 * with the column names; the GIL is released while SQLite steps (that is
 * where the inputs are read).
 *
 * A read error fails the query with the vtab's text "FILE: offset 0x..:
 * message"; it is raised as tracekit.Error with .file and .offset parsed
 * back from it, as the CLI prints the same text. */
#include <stdlib.h>
#include <string.h>

#include "tkpy.h"

#ifdef TK_HAVE_SQLITE
#include <sqlite3.h>

/* tracekit.Error from an SQLite message: "FILE: offset 0xHEX: message"
 * (a reader's error), else the message alone. */
static PyObject *raise_sql(const char *msg)
{
	tk_error err;
	tk_error_clear(&err);
	const char *at = strstr(msg, ": offset 0x");
	if (at) {
		char *end;
		unsigned long long off = strtoull(at + 11, &end, 16);
		if (end[0] == ':' && end[1] == ' ') {
			char file[256];
			size_t n = (size_t)(at - msg) < sizeof file - 1 ? (size_t)(at - msg)
									: sizeof file - 1;
			memcpy(file, msg, n);
			file[n] = '\0';
			tk_error_set(&err, TK_ERR_FORMAT, off, "%s", end + 2);
			tk_error_set_file(&err, file);
			return tkpy_raise(&err, file);
		}
	}
	tk_error_set(&err, TK_ERR_USAGE, TK_NO_OFFSET, "%s", msg);
	return tkpy_raise(&err, NULL);
}

static PyObject *column_value(sqlite3_stmt *st, int i)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_INTEGER: return PyLong_FromLongLong(sqlite3_column_int64(st, i));
	case SQLITE_FLOAT: return PyFloat_FromDouble(sqlite3_column_double(st, i));
	case SQLITE_TEXT:
		return PyUnicode_DecodeUTF8((const char *)sqlite3_column_text(st, i),
					    sqlite3_column_bytes(st, i), "replace");
	case SQLITE_BLOB: {
		const void *p = sqlite3_column_blob(st, i);
		return PyBytes_FromStringAndSize(p ? p : "", sqlite3_column_bytes(st, i));
	}
	default: Py_RETURN_NONE;
	}
}

PyObject *tkpy_sql(PyObject *self, PyObject *args, PyObject *kw)
{
	(void)self;
	static char *kwlist[] = {"paths", "query", "all_records", NULL};
	PyObject *paths_obj;
	const char *query;
	int all_records = 0;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "Os|p:sql", kwlist, &paths_obj, &query,
					 &all_records))
		return NULL;
	size_t n_paths = 0;
	char **paths = tkpy_paths(paths_obj, &n_paths);
	if (!paths)
		return NULL;
	PyObject *result = NULL, *rows = NULL, *names = NULL;
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK) {
		raise_sql(db ? sqlite3_errmsg(db) : "cannot open an SQLite connection");
		goto out;
	}
	tk_sql_options opt = {.all_records = all_records != 0};
	if (tk_sql_register(db, &opt) != SQLITE_OK) {
		raise_sql(sqlite3_errmsg(db));
		goto out;
	}
	tk_error err;
	tk_error_clear(&err);
	tk_status ts;
	Py_BEGIN_ALLOW_THREADS ts =
	    tk_sql_attach(db, (const char *const *)paths, n_paths, NULL, &err);
	Py_END_ALLOW_THREADS if (ts != TK_OK)
	{
		tkpy_raise(&err, n_paths ? paths[0] : NULL);
		goto out;
	}
	const char *tail = NULL;
	if (sqlite3_prepare_v2(db, query, -1, &st, &tail) != SQLITE_OK) {
		raise_sql(sqlite3_errmsg(db));
		goto out;
	}
	if (!st) {
		raise_sql("no SQL statement");
		goto out;
	}
	while (tail &&
	       (*tail == ' ' || *tail == '\n' || *tail == '\t' || *tail == ';' || *tail == '\r'))
		tail++;
	if (tail && *tail) {
		raise_sql("tracekit.sql() runs one statement");
		goto out;
	}
	int n_cols = sqlite3_column_count(st);
	names = PyTuple_New(n_cols);
	rows = PyList_New(0);
	if (!names || !rows)
		goto out;
	for (int i = 0; i < n_cols; i++) {
		const char *nm = sqlite3_column_name(st, i);
		PyObject *s = PyUnicode_FromString(nm ? nm : "");
		if (!s)
			goto out;
		PyTuple_SET_ITEM(names, i, s);
	}
	for (;;) {
		int rc;
		Py_BEGIN_ALLOW_THREADS rc = sqlite3_step(st);
		Py_END_ALLOW_THREADS if (rc == SQLITE_DONE) break;
		if (rc != SQLITE_ROW) {
			raise_sql(sqlite3_errmsg(db));
			goto out;
		}
		PyObject *row = PyTuple_New(n_cols);
		if (!row)
			goto out;
		for (int i = 0; i < n_cols; i++) {
			PyObject *v = column_value(st, i);
			if (!v) {
				Py_DECREF(row);
				goto out;
			}
			PyTuple_SET_ITEM(row, i, v);
		}
		int ok = PyList_Append(rows, row);
		Py_DECREF(row);
		if (ok < 0)
			goto out;
	}
	result = Py_BuildValue("(OO)", names, rows);
out:
	Py_XDECREF(names);
	Py_XDECREF(rows);
	sqlite3_finalize(st);
	sqlite3_close(db);
	tkpy_paths_free(paths);
	return result;
}

#else

PyObject *tkpy_sql(PyObject *self, PyObject *args, PyObject *kw)
{
	(void)self;
	(void)args;
	(void)kw;
	return tkpy_raise_msg("SQL is not available: tracekit was built without sqlite3");
}

#endif
