/* SQL over traces: SQLite virtual tables on any input the library reads.
 *
 * Not meant to be included alone: include <tracekit/tracekit.h>.
 * Present in libtracekit only when it was built with SQLite (TK_HAVE_SQLITE
 * in the build; `tracekit sql` says so otherwise).
 *
 * tk_sql_register() adds, on one connection, the virtual table module
 * "tracekit" and the SQL function tracekit_attach(path [, prefix]):
 *
 *   CREATE VIRTUAL TABLE t USING tracekit('perf.data' [, 'more files'...]
 *                                         [, 'table=sample']);
 *   SELECT tracekit_attach('perf.data');  -- every table: event, sample, ...
 *
 * Tables (Perfetto's trace processor names where the concept is the same):
 * event, sample, stack_frame, callsite, thread, process, mapping, track,
 * counter, sched, thread_state, profile, and event_<class> per event class (see
 * man/tracekit.1, SQL TABLES). Virtual tables read the input when a query
 * scans them; nothing is imported. A read error fails the query with
 * "FILE: offset 0x..: message".
 *
 * The module's state belongs to the connection and is freed with it. Not
 * thread-safe beyond SQLite's own rules for one connection. */
#ifndef TRACEKIT_SQL_H
#define TRACEKIT_SQL_H

#include <stdbool.h>
#include <stddef.h>

#include "status.h"

struct sqlite3;

typedef struct tk_sql_options {
	bool all_records; /* perf: event also holds comm/exit/fork/mmap records */
	tk_log_fn log;    /* readers' warnings; NULL: dropped */
	void *log_user;
} tk_sql_options;

/* Registers the module and functions on db. opt may be NULL. Returns an
 * SQLite result code (SQLITE_OK = 0). */
int tk_sql_register(struct sqlite3 *db, const tk_sql_options *opt);

/* Creates every table for paths (several inputs are read one after the
 * other) as temp.<prefix><table>; prefix may be NULL or "". The tables that
 * do not apply to the format exist and are empty. TK_ERR_IO with the SQLite
 * message when a statement fails. */
tk_status tk_sql_attach(struct sqlite3 *db, const char *const *paths, size_t n_paths,
			const char *prefix, tk_error *err);

/* Writes every table of paths into a new SQLite database file at out
 * (materialized tables + indexes), atomically: out appears complete or not
 * at all. *rows (may be NULL) receives the number of rows written. */
tk_status tk_sql_export(const char *const *paths, size_t n_paths, const tk_sql_options *opt,
			const char *out, uint64_t *rows, tk_error *err);

#endif
