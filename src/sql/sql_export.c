/* `convert -o x.sqlite`: every table of the inputs materialized into an
 * SQLite database file with indexes on the columns joins and time ranges
 * use, for repeated queries and tools that only speak SQLite. The virtual
 * tables are attached in the temp schema and copied with CREATE TABLE AS;
 * the file is written beside the target under a temporary name and renamed
 * when complete. */
#ifdef TK_HAVE_SQLITE
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sql/sql_internal.h"

static const char *const indexes[] = {
    "CREATE INDEX event_ts ON event(ts)",
    "CREATE INDEX event_name ON event(name)",
    "CREATE INDEX sample_ts ON sample(ts)",
    "CREATE INDEX sample_callsite ON sample(callsite_id)",
    "CREATE UNIQUE INDEX stack_frame_id ON stack_frame(id)",
    "CREATE UNIQUE INDEX callsite_id ON callsite(id)",
    "CREATE INDEX callsite_parent ON callsite(parent_id)",
    "CREATE UNIQUE INDEX thread_utid ON thread(utid)",
    "CREATE INDEX thread_tid ON thread(tid)",
    "CREATE UNIQUE INDEX process_upid ON process(upid)",
    "CREATE UNIQUE INDEX track_id ON track(id)",
    "CREATE INDEX counter_track_ts ON counter(track, ts)",
    "CREATE INDEX sched_ts ON sched(ts)",
    "CREATE INDEX sched_utid ON sched(utid)",
};

static tk_status sql_fail(sqlite3 *db, tk_error *err, const char *msg)
{
	return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "%s",
			    msg  ? msg
			    : db ? sqlite3_errmsg(db)
				 : "out of memory");
}

static tk_status exec(sqlite3 *db, const char *sql, tk_error *err)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return TK_OK;
	tk_status st = sql_fail(db, err, msg);
	sqlite3_free(msg);
	return st;
}

/* Copies every attached table (temp.v_*) into main; counts the rows. */
static tk_status copy_tables(sqlite3 *db, uint64_t *rows, tk_error *err)
{
	sqlite3_stmt *list;
	if (sqlite3_prepare_v2(db,
			       "SELECT name FROM temp.sqlite_master WHERE type = 'table' AND name "
			       "LIKE 'v\\_%' ESCAPE '\\' ORDER BY rowid",
			       -1, &list, NULL) != SQLITE_OK)
		return sql_fail(db, err, NULL);
	tk_status st = TK_OK;
	int rc;
	while (st == TK_OK && (rc = sqlite3_step(list)) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(list, 0);
		char *sql = sqlite3_mprintf("CREATE TABLE main.\"%w\" AS SELECT * FROM temp.\"%w\"",
					    v + 2, v);
		char *count = sqlite3_mprintf("SELECT count(*) FROM main.\"%w\"", v + 2);
		sqlite3_stmt *cs = NULL;
		if (!sql || !count)
			st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		else if ((st = exec(db, sql, err)) == TK_OK) {
			if (sqlite3_prepare_v2(db, count, -1, &cs, NULL) != SQLITE_OK ||
			    sqlite3_step(cs) != SQLITE_ROW)
				st = sql_fail(db, err, NULL);
			else
				*rows += (uint64_t)sqlite3_column_int64(cs, 0);
		}
		sqlite3_finalize(cs);
		sqlite3_free(sql);
		sqlite3_free(count);
	}
	if (st == TK_OK && rc != SQLITE_DONE)
		st = sql_fail(db, err, NULL);
	sqlite3_finalize(list);
	return st;
}

tk_status tk_sql_export(const char *const *paths, size_t n_paths, const tk_sql_options *opt,
			const char *out, uint64_t *rows, tk_error *err)
{
	tk_error_clear(err);
	uint64_t n_rows = 0;
	char tmp[4096];
	if (snprintf(tmp, sizeof tmp, "%s.tmp-%d", out, (int)getpid()) >= (int)sizeof tmp)
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET, "output path too long");
	unlink(tmp);
	sqlite3 *db = NULL;
	tk_status st = TK_OK;
	if (sqlite3_open(tmp, &db) != SQLITE_OK) {
		st = sql_fail(db, err, NULL);
		tk_error_set_file(err, out);
		goto out;
	}
	if (tk_sql_register(db, opt) != SQLITE_OK) {
		st = sql_fail(db, err, NULL);
		goto out;
	}
	/* One transaction, no journal: the file is thrown away on failure. */
	if ((st = exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN", err)) !=
	    TK_OK)
		goto out;
	if ((st = tk_sql_attach(db, paths, n_paths, "v_", err)) != TK_OK)
		goto out;
	if ((st = copy_tables(db, &n_rows, err)) != TK_OK)
		goto out;
	for (size_t i = 0; i < sizeof indexes / sizeof indexes[0] && st == TK_OK; i++)
		st = exec(db, indexes[i], err);
	if (st == TK_OK)
		st = exec(db, "COMMIT", err);
out:
	if (db && sqlite3_close(db) != SQLITE_OK && st == TK_OK)
		st = tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot close %s", tmp);
	if (st == TK_OK && rename(tmp, out) != 0)
		st = tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot rename %s to %s", tmp, out);
	if (st != TK_OK)
		unlink(tmp);
	if (rows)
		*rows = n_rows;
	return st;
}

#endif /* TK_HAVE_SQLITE */
