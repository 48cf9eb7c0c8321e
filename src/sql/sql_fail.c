/* SQLite error text from a tk_error ("FILE: offset 0x..: message"). */
#ifdef TK_HAVE_SQLITE
#include "sql/sql_internal.h"

char *tk_sql_error_text(const tk_error *err, const char *path)
{
	const char *file = err->file[0] ? err->file : path;
	if (file && *file && err->offset != TK_NO_OFFSET)
		return sqlite3_mprintf("%s: offset 0x%llx: %s", file,
				       (unsigned long long)err->offset, err->message);
	if (file && *file)
		return sqlite3_mprintf("%s: %s", file, err->message);
	return sqlite3_mprintf("%s", err->message);
}

int tk_sql_vtab_fail(tk_sql_vtab *vt, const tk_error *err, const char *path)
{
	sqlite3_free(vt->base.zErrMsg);
	vt->base.zErrMsg = tk_sql_error_text(err, path);
	return err->status == TK_ERR_NOMEM ? SQLITE_NOMEM : SQLITE_ERROR;
}
#endif
