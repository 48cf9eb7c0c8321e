/* tracekit sql: SQL over the files' tables (src/sql, SQLite), and
 * `convert -o x.sqlite`.
 *
 *   tracekit sql FILE... 'QUERY'        run QUERY (several statements may follow each other)
 *   tracekit sql FILE... -f query.sql   the statements in a file
 *   tracekit sql FILE...                a prompt on a terminal, else the statements on stdin
 *
 * The last argument is the query unless it names an existing file or
 * directory. Results go to stdout as an aligned table (default), CSV with a
 * header, or JSON lines (--format). */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#ifdef TK_HAVE_SQLITE
#include <sqlite3.h>

typedef enum { OUT_TABLE, OUT_CSV, OUT_JSON } out_style;

static void put_csv(tk_writer *w, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		tk_put_str(w, s);
		return;
	}
	tk_put_char(w, '"');
	for (; *s; s++) {
		if (*s == '"')
			tk_put_char(w, '"');
		tk_put_char(w, *s);
	}
	tk_put_char(w, '"');
}

/* Cells of the table style, kept until the statement ends to size columns. */
typedef struct table_buf {
	char **cells;
	size_t n, cap;
	int n_cols;
} table_buf;

static bool table_add(table_buf *t, const char *s)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		char **c = realloc(t->cells, cap * sizeof *c);
		if (!c)
			return false;
		t->cells = c;
		t->cap = cap;
	}
	t->cells[t->n] = strdup(s);
	return t->cells[t->n++] != NULL;
}

static void table_flush(table_buf *t, tk_writer *w)
{
	if (!t->n_cols)
		return;
	size_t *width = calloc((size_t)t->n_cols, sizeof *width);
	for (size_t i = 0; width && i < t->n; i++) {
		size_t len = strlen(t->cells[i]);
		if (len > width[i % (size_t)t->n_cols])
			width[i % (size_t)t->n_cols] = len;
	}
	for (size_t i = 0; i < t->n; i++) {
		size_t col = i % (size_t)t->n_cols;
		bool last = col + 1 == (size_t)t->n_cols;
		tk_put_str(w, t->cells[i]);
		if (!last && width)
			tk_put_spaces(w, (unsigned)(width[col] - strlen(t->cells[i]) + 2));
		if (last)
			tk_put_char(w, '\n');
		if (i + 1 == (size_t)t->n_cols && width) { /* a rule under the header */
			for (size_t k = 0; k < (size_t)t->n_cols; k++) {
				for (size_t j = 0; j < width[k]; j++)
					tk_put_char(w, '-');
				tk_put_str(w, k + 1 == (size_t)t->n_cols ? "\n" : "  ");
			}
		}
		free(t->cells[i]);
	}
	free(width);
	t->n = 0;
}

static void put_json_value(tk_writer *w, sqlite3_stmt *st, int i)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_NULL: tk_put_str(w, "null"); break;
	case SQLITE_INTEGER: tk_put_i64(w, sqlite3_column_int64(st, i)); break;
	case SQLITE_FLOAT: {
		double d = sqlite3_column_double(st, i);
		if (d != d || d - d != 0)
			tk_put_str(w, "null");
		else
			tk_put_double(w, d, "%.17g");
		break;
	}
	default: {
		const char *s = (const char *)sqlite3_column_text(st, i);
		tk_put_json_str(w, s ? s : "", s ? (size_t)sqlite3_column_bytes(st, i) : 0);
	}
	}
}

/* Runs one statement and prints its rows. */
static int run_stmt(sqlite3 *db, sqlite3_stmt *st, out_style style, tk_writer *w)
{
	int n = sqlite3_column_count(st);
	table_buf tb = {.n_cols = n};
	bool header = n > 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (header) {
			header = false;
			for (int i = 0; i < n; i++) {
				const char *name = sqlite3_column_name(st, i);
				if (style == OUT_TABLE) {
					if (!table_add(&tb, name ? name : ""))
						goto nomem;
				} else if (style == OUT_CSV) {
					if (i)
						tk_put_char(w, ',');
					put_csv(w, name ? name : "");
				}
			}
			if (style == OUT_CSV)
				tk_put_char(w, '\n');
		}
		for (int i = 0; i < n; i++) {
			const char *s = (const char *)sqlite3_column_text(st, i);
			if (style == OUT_TABLE) {
				if (!table_add(&tb, s ? s : "NULL"))
					goto nomem;
			} else if (style == OUT_CSV) {
				if (i)
					tk_put_char(w, ',');
				put_csv(w, s ? s : "");
			} else {
				tk_put_str(w, i ? "," : "{");
				const char *name = sqlite3_column_name(st, i);
				tk_put_json_str(w, name ? name : "", name ? strlen(name) : 0);
				tk_put_char(w, ':');
				put_json_value(w, st, i);
			}
		}
		if (style == OUT_CSV)
			tk_put_char(w, '\n');
		else if (style == OUT_JSON)
			tk_put_str(w, n ? "}\n" : "{}\n");
	}
	table_flush(&tb, w);
	free(tb.cells);
	if (rc != SQLITE_DONE) {
		tk_writer_flush(w, NULL);
		fprintf(stderr, "tracekit: %s\n", sqlite3_errmsg(db));
		return TK_EXIT_BAD_INPUT;
	}
	return 0;
nomem:
	for (size_t i = 0; i < tb.n; i++)
		free(tb.cells[i]);
	free(tb.cells);
	fputs("tracekit: out of memory\n", stderr);
	return TK_EXIT_BAD_INPUT;
}

/* Runs every statement of sql; stops at the first error. */
static int run_sql(sqlite3 *db, const char *sql, out_style style, tk_writer *w)
{
	const char *tail = sql;
	while (tail && *tail) {
		sqlite3_stmt *st = NULL;
		if (sqlite3_prepare_v2(db, tail, -1, &st, &tail) != SQLITE_OK) {
			tk_writer_flush(w, NULL);
			fprintf(stderr, "tracekit: %s\n", sqlite3_errmsg(db));
			return TK_EXIT_BAD_INPUT;
		}
		if (!st) /* whitespace or a comment */
			continue;
		int rc = run_stmt(db, st, style, w);
		sqlite3_finalize(st);
		if (rc)
			return rc;
	}
	return 0;
}

static char *read_all(FILE *f)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
		if (cap - n - 1 == 0) {
			char *nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
	}
	if (buf)
		buf[n] = '\0';
	return buf;
}

/* The prompt: statements end with ';' (sqlite3_complete); .tables,
 * .schema [TABLE] and .quit as in the sqlite3 shell. */
/* Ctrl-C: the running statement stops (SQLite's interrupt, and the
 * readers end at a whole record); the prompt then goes on, a query given
 * on the command line exits 130. */
static sqlite3 *interrupt_db;
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
	tk_interrupt();
	if (interrupt_db)
		sqlite3_interrupt(interrupt_db);
}

/* After a statement: clears a Ctrl-C; true when there was one. */
static bool take_interrupt(void)
{
	if (!interrupted)
		return false;
	interrupted = 0;
	tk_interrupt_reset();
	return true;
}

static int interactive(sqlite3 *db, out_style style, tk_writer *w)
{
	char *buf = NULL;
	size_t len = 0;
	char line[4096];
	fputs("tracekit sql: end statements with ';', .tables lists the tables, .quit leaves\n",
	      stderr);
	for (;;) {
		fputs(len ? "   ...> " : "tracekit> ", stderr);
		fflush(stderr);
		if (!fgets(line, sizeof line, stdin))
			break;
		if (take_interrupt()) { /* Ctrl-C at the prompt drops the statement typed so far */
			len = 0;
			if (buf)
				buf[0] = '\0';
		}
		if (!len && line[0] == '.') {
			line[strcspn(line, "\r\n")] = '\0';
			if (strcmp(line, ".quit") == 0 || strcmp(line, ".exit") == 0)
				break;
			const char *q = NULL;
			char *owned = NULL;
			if (strcmp(line, ".tables") == 0)
				q = "SELECT name FROM temp.sqlite_master WHERE type = 'table' "
				    "ORDER BY "
				    "name;";
			else if (strncmp(line, ".schema", 7) == 0)
				q = owned = sqlite3_mprintf("SELECT sql FROM temp.sqlite_master "
							    "WHERE name LIKE '%q' ORDER BY "
							    "name;",
							    line[7] ? line + 8 : "%");
			else
				fprintf(stderr, "tracekit: unknown command %s\n", line);
			if (q)
				run_sql(db, q, style, w);
			sqlite3_free(owned);
			tk_writer_flush(w, NULL);
			continue;
		}
		size_t k = strlen(line);
		char *nb = realloc(buf, len + k + 1);
		if (!nb)
			break;
		buf = nb;
		memcpy(buf + len, line, k + 1);
		len += k;
		if (sqlite3_complete(buf)) {
			run_sql(db, buf, style, w);
			tk_writer_flush(w, NULL);
			if (take_interrupt())
				fputs("tracekit: interrupted\n", stderr);
			len = 0;
			buf[0] = '\0';
		}
	}
	free(buf);
	return 0;
}

static void sql_log(void *user, int level, const char *msg)
{
	bool quiet = *(bool *)user;
	if (!quiet && level == 0) {
		tk_writer_flush(tk_cli_stdout(), NULL);
		fprintf(stderr, "tracekit: warning: %s\n", msg);
	}
}

int tk_cmd_sql(int argc, char **argv)
{
	static const struct option longs[] = {
	    {"file", required_argument, NULL, 'f'}, {"format", required_argument, NULL, 'F'},
	    {"all", no_argument, NULL, 'a'},        {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},       {NULL, 0, NULL, 0},
	};
	const char *file = NULL, *format = "table";
	bool all = false, quiet = false;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:aqh", longs, NULL)) != -1) {
		switch (c) {
		case 'f': file = optarg; break;
		case 'F': format = optarg; break;
		case 'a': all = true; break;
		case 'q': quiet = true; break;
		case 'h':
			fputs(
			    "usage: tracekit sql [OPTIONS] FILE... [QUERY]\n"
			    "SQL over the files' tables (SQLite; man tracekit, SQL).\n"
			    "The last argument is the query unless it names a file; without one,\n"
			    "a prompt on a terminal, else the statements on stdin.\n"
			    "  -f, --file F                the statements in F\n"
			    "      --format table|csv|json results as an aligned table (default),\n"
			    "                              CSV with a header, or JSON lines\n"
			    "  -a, --all                   perf: event also holds "
			    "comm/exit/fork/mmap\n"
			    "  -q, --quiet                 no warnings\n",
			    stdout);
			return 0;
		default: return TK_EXIT_USAGE;
		}
	}
	out_style style = strcmp(format, "table") == 0  ? OUT_TABLE
			  : strcmp(format, "csv") == 0  ? OUT_CSV
			  : strcmp(format, "json") == 0 ? OUT_JSON
							: (out_style)-1;
	if ((int)style < 0) {
		fprintf(stderr, "tracekit sql: --format must be table, csv or json, not '%s'\n",
			format);
		return TK_EXIT_USAGE;
	}
	int n_paths = argc - optind;
	const char *query = NULL;
	struct stat sb;
	if (!file && n_paths >= 2 && stat(argv[argc - 1], &sb) != 0) {
		query = argv[argc - 1];
		n_paths--;
	}
	if (n_paths < 1) {
		fprintf(stderr, "tracekit sql: no input file (tracekit sql FILE... 'QUERY')\n");
		return TK_EXIT_USAGE;
	}
	for (int i = 0; i < n_paths; i++)
		if (strcmp(argv[optind + i], "-") == 0) {
			/* each table reads its file when scanned, maybe several times */
			fprintf(stderr, "tracekit sql: reads files in place: '-' (stdin) is not an "
					"input here; save it to a file first\n");
			return TK_EXIT_USAGE;
		}
	char *owned = NULL;
	if (file) {
		FILE *f = strcmp(file, "-") == 0 ? stdin : fopen(file, "r");
		if (!f) {
			fprintf(stderr, "tracekit: %s: cannot open the query file\n", file);
			return TK_EXIT_BAD_INPUT;
		}
		owned = read_all(f);
		if (f != stdin)
			fclose(f);
		query = owned;
	} else if (!query && !isatty(STDIN_FILENO)) {
		query = owned = read_all(stdin);
	}
	if ((file || (!query && !isatty(STDIN_FILENO))) && !owned) {
		fputs("tracekit: out of memory\n", stderr);
		return TK_EXIT_BAD_INPUT;
	}
	sqlite3 *db = NULL;
	int rc = 0;
	if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
		fprintf(stderr, "tracekit: sqlite: %s\n",
			db ? sqlite3_errmsg(db) : "out of memory");
		rc = TK_EXIT_BAD_INPUT;
		goto out;
	}
	tk_sql_options so = {.all_records = all, .log = sql_log, .log_user = &quiet};
	if (tk_sql_register(db, &so) != SQLITE_OK) {
		fprintf(stderr, "tracekit: sqlite: %s\n", sqlite3_errmsg(db));
		rc = TK_EXIT_BAD_INPUT;
		goto out;
	}
	tk_error err;
	const char *const *paths = (const char *const *)(argv + optind);
	for (int i = 0; i < n_paths; i++) {
		/* A missing or unreadable input fails now, not at the first query. */
		if (tk_detect_format(paths[i], &err) == TK_FORMAT_UNKNOWN) {
			rc = tk_cli_fail(&err, paths[i]);
			goto out;
		}
	}
	if (tk_sql_attach(db, paths, (size_t)n_paths, NULL, &err) != TK_OK) {
		rc = tk_cli_fail(&err, NULL);
		goto out;
	}
	tk_writer *w = tk_cli_stdout();
	interrupt_db = db;
	struct sigaction sa = {.sa_handler = on_interrupt, .sa_flags = SA_RESTART};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN); /* a reader that stops early (head) is not an error */
	rc = query ? run_sql(db, query, style, w) : interactive(db, style, w);
	if (query && take_interrupt()) {
		tk_writer_flush(w, NULL);
		rc = 128 + SIGINT;
	}
	interrupt_db = NULL;
out:
	sqlite3_close(db);
	free(owned);
	return tk_cli_finish(rc);
}

/* convert -o x.sqlite / --to sqlite. */
bool tk_cli_sqlite_output(const tk_cli *cli)
{
	if (cli->to)
		return strcmp(cli->to, "sqlite") == 0;
	size_t n = cli->output ? strlen(cli->output) : 0;
	return n > 7 && strcmp(cli->output + n - 7, ".sqlite") == 0;
}

int tk_cmd_convert_sqlite(const tk_cli *cli)
{
	if (strcmp(cli->output, "-") == 0) {
		fprintf(stderr, "tracekit convert: an SQLite database is a file: -o PATH, not -\n");
		return TK_EXIT_USAGE;
	}
	tk_sql_options so = {
	    .all_records = cli->opt.all_records, .log = tk_cli_log, .log_user = (void *)&cli->opt};
	tk_error err;
	uint64_t rows = 0;
	if (tk_sql_export(cli->inputs, (size_t)cli->n_inputs, &so, cli->output, &rows, &err) !=
	    TK_OK)
		return tk_cli_fail(&err, NULL);
	if (cli->opt.verbose)
		fprintf(stderr, "tracekit: wrote %llu rows to %s\n", (unsigned long long)rows,
			cli->output);
	return 0;
}

#else /* no SQLite */

static int no_sql(void)
{
	fputs("tracekit: SQL is not available: this tracekit was built without sqlite3 "
	      "(install libsqlite3-dev and rebuild)\n",
	      stderr);
	return TK_EXIT_USAGE;
}

int tk_cmd_sql(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return no_sql();
}

bool tk_cli_sqlite_output(const tk_cli *cli)
{
	if (cli->to)
		return strcmp(cli->to, "sqlite") == 0;
	size_t n = cli->output ? strlen(cli->output) : 0;
	return n > 7 && strcmp(cli->output + n - 7, ".sqlite") == 0;
}

int tk_cmd_convert_sqlite(const tk_cli *cli)
{
	(void)cli;
	return no_sql();
}

#endif
