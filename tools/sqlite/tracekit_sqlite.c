/* tracekit_sqlite: the SQLite loadable extension.
 *
 *   sqlite> .load build/lib/tracekit_sqlite
 *   sqlite> CREATE VIRTUAL TABLE t USING tracekit('perf.data');
 *   sqlite> SELECT tracekit_attach('perf.data');   -- event, sample, ...
 *
 * The library calls SQLite directly: the extension is linked against
 * libsqlite3.so.0, the library the host (Debian's sqlite3 shell, Python's
 * sqlite3 module) already uses, so both name the same SQLite. */
#include <sqlite3.h>

#include "tracekit/sql.h"

int sqlite3_tracekitsqlite_init(sqlite3 *db, char **err_msg, const void *api);
int sqlite3_extension_init(sqlite3 *db, char **err_msg, const void *api);

int sqlite3_tracekitsqlite_init(sqlite3 *db, char **err_msg, const void *api)
{
	(void)api;
	int rc = tk_sql_register(db, NULL);
	if (rc != SQLITE_OK && err_msg)
		*err_msg =
		    sqlite3_mprintf("tracekit: cannot register the module: %s", sqlite3_errstr(rc));
	return rc;
}

/* The name SQLite tries when the file was renamed. */
int sqlite3_extension_init(sqlite3 *db, char **err_msg, const void *api)
{
	return sqlite3_tracekitsqlite_init(db, err_msg, api);
}
