/* Unit tests for the SQLite module: module arguments and their errors, and
 * the ts pushdown's bounds. Every ts constraint form (<, <=, >, >=, =,
 * BETWEEN, integers, reals, text, NULL, out-of-range values) must keep
 * exactly the rows a plain filter keeps (ts + 0 is not pushed down), on a
 * CTF trace (packet skip, early stop) and a CPEL file (filter only). */
#include <stdio.h>
#include <string.h>

#include "test_support.h"
#include "tracekit/tracekit.h"

#ifdef TK_HAVE_SQLITE
#include <sqlite3.h>

static sqlite3 *open_db(void)
{
	sqlite3 *db;
	assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
	assert_int_equal(tk_sql_register(db, NULL), SQLITE_OK);
	return db;
}

/* The single integer a query returns; -1 on error (message in *msg). */
static long long one(sqlite3 *db, const char *sql, char *msg, size_t cap)
{
	sqlite3_stmt *st;
	long long v = -1;
	if (msg)
		msg[0] = '\0';
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		if (msg)
			snprintf(msg, cap, "%s", sqlite3_errmsg(db));
		return -1;
	}
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	else if (msg)
		snprintf(msg, cap, "%s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return v;
}

static void exec_ok(sqlite3 *db, const char *sql)
{
	char *msg = NULL;
	int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
	if (rc != SQLITE_OK)
		fail_msg("%s: %s", sql, msg ? msg : "?");
}

/* sql must fail with a message holding needle. */
static void expect_error(sqlite3 *db, const char *sql, const char *needle)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK)
		fail_msg("%s: succeeded", sql);
	if (!msg || !strstr(msg, needle))
		fail_msg("%s: error '%s', not '%s'", sql, msg ? msg : "", needle);
	sqlite3_free(msg);
}

static void test_arguments(void **state)
{
	(void)state;
	sqlite3 *db = open_db();
	char sql[1024], msg[512];
	const char *cpel = tk_test_data("cpel/vpp-small.cpel");
	snprintf(sql, sizeof sql, "CREATE VIRTUAL TABLE a USING tracekit('%s', 'table=nosuch')",
		 cpel);
	expect_error(db, sql, "unknown table 'nosuch'");
	expect_error(db, "CREATE VIRTUAL TABLE b USING tracekit()", "usage");
	snprintf(sql, sizeof sql, "CREATE VIRTUAL TABLE c USING tracekit('%s', 'class=nosuch')",
		 cpel);
	expect_error(db, sql, "no event class 'nosuch'");
	/* quotes of every kind; a doubled quote inside single quotes */
	snprintf(sql, sizeof sql, "CREATE VIRTUAL TABLE d USING tracekit(\"%s\", [table=track])",
		 cpel);
	exec_ok(db, sql);
	assert_int_equal(one(db, "SELECT count(*) FROM d", msg, sizeof msg), 2);
	/* a missing file: the error names it when the table is read */
	exec_ok(db, "CREATE VIRTUAL TABLE e USING tracekit('/nonexistent/x''y.data')");
	assert_int_equal(one(db, "SELECT count(*) FROM e", msg, sizeof msg), -1);
	assert_non_null(strstr(msg, "/nonexistent/x'y.data"));
	/* a class table: ts, cpu, pid, tid then the payload members */
	snprintf(sql, sizeof sql, "CREATE VIRTUAL TABLE f USING tracekit('%s', 'class=rx-burst:')",
		 cpel);
	exec_ok(db, sql);
	assert_int_equal(
	    one(db, "SELECT count(*) FROM f WHERE track = 'worker 1'", msg, sizeof msg), 3);
	sqlite3_close(db);
}

/* Every bound form on one table: pushed down = filtered. */
static void check_bounds(sqlite3 *db, const char *table)
{
	char sql[512], msg[512];
	snprintf(sql, sizeof sql, "SELECT min(ts) FROM %s", table);
	long long lo = one(db, sql, msg, sizeof msg);
	snprintf(sql, sizeof sql, "SELECT max(ts) FROM %s", table);
	long long hi = one(db, sql, msg, sizeof msg);
	assert_true(lo >= 0 && hi >= lo);
	long long mid = lo + (hi - lo) / 2;
	const char *ops[] = {"<", "<=", ">", ">=", "="};
	/* the value pushed down, and the same for the unpushed +ts: a text
	 * value takes the column's INTEGER affinity, +ts has none */
	char vals[12][2][40];
	int nv = 0;
	long long pts[] = {lo - 1, lo, lo + 1, mid, hi - 1, hi, hi + 1};
	for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++, nv++) {
		snprintf(vals[nv][0], sizeof vals[0][0], "%lld", pts[i]);
		snprintf(vals[nv][1], sizeof vals[0][1], "%lld", pts[i]);
	}
	snprintf(vals[nv][0], 40, "%lld.5", mid); /* a real between two ints */
	snprintf(vals[nv++][1], 40, "%lld.5", mid);
	snprintf(vals[nv][0], 40, "'%lld'", mid); /* text: compared as a number */
	snprintf(vals[nv++][1], 40, "%lld", mid);
	snprintf(vals[nv][0], 40, "NULL"); /* nothing compares */
	snprintf(vals[nv++][1], 40, "NULL");
	snprintf(vals[nv][0], 40, "-5"); /* below every ts */
	snprintf(vals[nv++][1], 40, "-5");
	snprintf(vals[nv][0], 40, "1e30"); /* above every uint64 */
	snprintf(vals[nv++][1], 40, "1e30");
	for (size_t o = 0; o < 5; o++) {
		for (int v = 0; v < nv; v++) {
			char a[1024], b[1024];
			snprintf(a, sizeof a, "SELECT count(*) FROM %s WHERE ts %s %s", table,
				 ops[o], vals[v][0]);
			snprintf(b, sizeof b, "SELECT count(*) FROM %s WHERE +ts %s %s", table,
				 ops[o], vals[v][1]);
			long long x = one(db, a, msg, sizeof msg), y = one(db, b, msg, sizeof msg);
			if (x != y)
				fail_msg("%s: %lld rows, filtered %lld", a, x, y);
		}
	}
	snprintf(sql, sizeof sql,
		 "SELECT count(*) FROM %s WHERE ts BETWEEN %lld AND %lld AND ts > %lld", table,
		 lo + 1, hi - 1, mid);
	char b[512];
	snprintf(b, sizeof b,
		 "SELECT count(*) FROM %s WHERE +ts BETWEEN %lld AND %lld AND +ts > %lld", table,
		 lo + 1, hi - 1, mid);
	assert_int_equal(one(db, sql, msg, sizeof msg), one(db, b, msg, sizeof msg));
	/* contradictory bounds: nothing, without reading */
	snprintf(sql, sizeof sql, "SELECT count(*) FROM %s WHERE ts > %lld AND ts < %lld", table,
		 hi, lo);
	assert_int_equal(one(db, sql, msg, sizeof msg), 0);
}

static void test_ts_pushdown(void **state)
{
	(void)state;
	sqlite3 *db = open_db();
	char sql[1024];
	snprintf(sql, sizeof sql, "CREATE VIRTUAL TABLE c USING tracekit('%s')",
		 tk_test_data("ctf/babeltrace/succeed/trace-with-index"));
	exec_ok(db, sql);
	snprintf(sql, sizeof sql, "CREATE VIRTUAL TABLE p USING tracekit('%s')",
		 tk_test_data("cpel/vpp-new.cpel"));
	exec_ok(db, sql);
	check_bounds(db, "c");
	check_bounds(db, "p");
	/* derived tables: a binary search where rows are in ts order */
	const char *lt = tk_test_data("ctf/babeltrace/succeed/lttng-tracefile-rotation");
	char path[512];
	snprintf(path, sizeof path, "%.500s", lt);
	snprintf(sql, sizeof sql, "CREATE VIRTUAL TABLE s USING tracekit('%s', 'table=sched')",
		 path);
	exec_ok(db, sql);
	snprintf(sql, sizeof sql,
		 "CREATE VIRTUAL TABLE ts USING tracekit('%s', 'table=thread_state')", path);
	exec_ok(db, sql);
	snprintf(sql, sizeof sql, "CREATE VIRTUAL TABLE sa USING tracekit('%s', 'table=sample')",
		 tk_test_data("perf/pdc/with-callchain.perf.data"));
	exec_ok(db, sql);
	check_bounds(db, "s");
	check_bounds(db, "ts");
	check_bounds(db, "sa");
	sqlite3_close(db);
}

/* cpu, pid, tid and name equalities: pushed down = filtered, whatever the
 * value's type. */
static void test_eq_pushdown(void **state)
{
	(void)state;
	sqlite3 *db = open_db();
	char sql[1024], msg[512];
	snprintf(sql, sizeof sql, "CREATE VIRTUAL TABLE e USING tracekit('%s')",
		 tk_test_data("perf/pdc/multi-event-single-process.perf.data"));
	exec_ok(db, sql);
	/* condition, and the same on unpushed +columns (no affinity: a value
	 * of another type converted by hand as the column's affinity would) */
	static const char *const conds[][2] = {
	    {"name = 'task-clock'", "+name = 'task-clock'"},
	    {"name = 'nosuch'", "+name = 'nosuch'"},
	    {"name = 1", "+name = '1'"},
	    {"tid = 7183", "+tid = 7183"},
	    {"tid = '7183'", "+tid = 7183"},
	    {"tid = 7183.0", "+tid = 7183.0"},
	    {"pid = 99999", "+pid = 99999"},
	    {"cpu IS NULL", "+cpu IS NULL"},
	    {"tid = 5000000000", "+tid = 5000000000"},
	    {"tid = -1", "+tid = -1"},
	    {"file = 'nope'", "+file = 'nope'"},
	    {"name = 'task-clock' AND tid = 7183", "+name = 'task-clock' AND +tid = 7183"},
	};
	for (size_t i = 0; i < sizeof conds / sizeof conds[0]; i++) {
		char a[512], b[512];
		snprintf(a, sizeof a, "SELECT count(*) FROM e WHERE %s", conds[i][0]);
		snprintf(b, sizeof b, "SELECT count(*) FROM e WHERE %s", conds[i][1]);
		long long x = one(db, a, msg, sizeof msg), y = one(db, b, msg, sizeof msg);
		if (x != y || x < 0)
			fail_msg("%s: %lld rows, filtered %lld (%s)", a, x, y, msg);
	}
	assert_true(one(db, "SELECT count(*) FROM e WHERE name = 'task-clock'", msg, sizeof msg) >
		    0);
	sqlite3_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_arguments),
	    cmocka_unit_test(test_ts_pushdown),
	    cmocka_unit_test(test_eq_pushdown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

#else

static void test_no_sqlite(void **state)
{
	(void)state;
	skip();
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_no_sqlite)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

#endif
