/* Shared pieces of the tracekit command line: option parsing, error
 * reporting, and the subcommand entry points (one cmd_<verb>.c each). */
#ifndef TK_CLI_H
#define TK_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "convert/formats.h"

enum { TK_EXIT_OK = 0, TK_EXIT_BAD_INPUT = 1, TK_EXIT_USAGE = 2 };
enum { TK_EXIT_INTERRUPTED = 130 }; /* 128 + SIGINT, as shells report it */

typedef struct tk_cli {
	tk_render_options opt;
	tk_format input_format; /* --input-format, or UNKNOWN to detect */
	const char *output;     /* -o */
	const char *to;         /* --to */
	const char *sort;       /* report --sort */
	uint64_t top;           /* report --top */
	const char *report_state, *report_latency, *report_linreg;
	tk_sink_options sink;
	int progress; /* --progress / --no-progress; -1 = when stderr is a terminal */
	const char **inputs;
	int n_inputs;
	bool children;        /* report --children */
	int call_graph;       /* report -g/--call-graph: tk_report_graph */
	double percent_limit; /* report --percent-limit (call graphs), default 0.5 */
	bool no_children;     /* report --no-children: perf's self-only table */
	bool per_thread;      /* report --per-thread: a perf-style table per thread */
} tk_cli;

/* The commands, as bits of an option's "applies to" mask. */
enum {
	TK_VERB_INFO = 1 << 0,
	TK_VERB_STATS = 1 << 1,
	TK_VERB_PRINT = 1 << 2,
	TK_VERB_CONVERT = 1 << 3,
	TK_VERB_REPORT = 1 << 4,
	TK_VERB_DIFF = 1 << 5,
};

/* A time value of --begin/--end/--time before the trace is read: an
 * absolute time, a time of day, or a percentage of the trace's span. */
typedef enum { TK_TIME_NS, TK_TIME_OF_DAY, TK_TIME_PERCENT } tk_cli_time_kind;
typedef struct tk_cli_time {
	tk_cli_time_kind kind;
	uint64_t ns;    /* TK_TIME_NS: ns; TK_TIME_OF_DAY: ns since midnight */
	double percent; /* TK_TIME_PERCENT */
} tk_cli_time;

/* Parses one time value (cli_time.c): seconds by default ("176.5", "2583"),
 * or with a unit suffix ns/us/ms/s, babeltrace's "HH:MM[:SS[.NS]]" (a time
 * of day on the trace's first day) and "YYYY-MM-DD HH:MM[:SS[.NS]]"
 * (local time, or UTC with gmt), and with `percent` "P%". Returns NULL, or
 * why the text is not a time. */
const char *tk_cli_time_parse(const char *text, bool percent, bool gmt, tk_cli_time *out);
/* Parses perf's --time: "START,END" (either may be empty), "P%/N" (the
 * N-th slice of P%) or "P%-Q%". Returns NULL or why not. */
const char *tk_cli_time_range_parse(const char *text, bool gmt, tk_cli_time *begin, bool *has_begin,
				    tk_cli_time *end, bool *has_end);
/* Turns relative times into ns given the trace's first and last event
 * times; gmt chooses UTC over local time for times of day. */
uint64_t tk_cli_time_resolve(const tk_cli_time *t, uint64_t first_ns, uint64_t last_ns, bool gmt);

/* After parsing (cli_prepare.c): resolves the times that need the trace's
 * span (reading the inputs once), checks begin <= end, and warns about
 * --event globs that match no event class of an input. Returns 0, or the
 * exit status after printing why. */
int tk_cli_prepare(tk_cli *cli, const char *verb, const tk_cli_time *begin, bool has_begin,
		   const tk_cli_time *end, bool has_end);
/* Prints `verb`'s usage and the options that apply to it (cli_help.c). */
void tk_cli_help(const char *verb, FILE *out);

/* Parses argv for `verb`; prints usage errors itself. Returns 0 or TK_EXIT_USAGE. */
int tk_cli_parse(tk_cli *cli, const char *verb, int argc, char **argv);
/* Prints "tracekit: FILE: offset 0x..: message" to stderr; returns 1. */
int tk_cli_fail(const tk_error *err, const char *fallback_file);
/* Log callback printing "tracekit: warning: ..." to stderr. */
void tk_cli_log(void *user, int level, const char *msg);
/* Resolves the format of one input (option or detection). */
tk_status tk_cli_format_of(const tk_cli *cli, const char *path, const tk_format_ops **ops,
			   tk_error *err);
tk_writer *tk_cli_stdout(void);
/* Flushes stdout; a failed write (other than a closed pipe) is an error. */
int tk_cli_finish(int rc);

int tk_cmd_info(int argc, char **argv);
int tk_cmd_stats(int argc, char **argv);
int tk_cmd_print(int argc, char **argv);
int tk_cmd_convert(int argc, char **argv);
int tk_cmd_report(int argc, char **argv);
int tk_cmd_diff(int argc, char **argv);
int tk_cmd_record(int argc, char **argv);      /* cmd_record.c */
int tk_cmd_report_profile(const tk_cli *cli);  /* cmd_diff.c */
int tk_cmd_report_children(const tk_cli *cli); /* cmd_report_children.c */
/* report --scheduler/--workers (cmd_report_cluster.c): *handled says whether
 * the arguments asked for the cluster; then the return value is the exit status. */
int tk_report_cluster(int argc, char **argv, bool *handled);

/* tracekit sql, and convert to .sqlite (cmd_sql.c). */
int tk_cmd_sql(int argc, char **argv);
bool tk_cli_sqlite_output(const tk_cli *cli);
int tk_cmd_convert_sqlite(const tk_cli *cli);

int tk_cmd_view(int argc, char **argv); /* cmd_view.c */

extern const char tk_usage_text[];
/* cli_io.c: the usage text -h prints where a command has no own help (main()
 * sets it to tk_usage_text), and Ctrl-C handling (stdin_input: the first
 * SIGINT only notes the interruption, see cli_io.c). */
extern const char *tk_cli_usage;

/* Puts the CLI's heap on transparent huge pages (cli_heap.c); call first. */
void tk_cli_heap_huge_pages(void);
void tk_cli_catch_interrupts(bool stdin_input);

#endif
