/* Shared pieces of the tracekit command line: option parsing, error
 * reporting, and the subcommand entry points (one cmd_<verb>.c each). */
#ifndef TK_CLI_H
#define TK_CLI_H

#include "convert/formats.h"

enum { TK_EXIT_OK = 0, TK_EXIT_BAD_INPUT = 1, TK_EXIT_USAGE = 2 };

typedef struct tk_cli {
	tk_cli_options opt;
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
} tk_cli;

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
int tk_cmd_report_profile(const tk_cli *cli); /* cmd_diff.c */
/* report --scheduler/--workers (cmd_report_cluster.c): *handled says whether
 * the arguments asked for the cluster; then the return value is the exit status. */
int tk_report_cluster(int argc, char **argv, bool *handled);

extern const char tk_usage_text[];

#endif
