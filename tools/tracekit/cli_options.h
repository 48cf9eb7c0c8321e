/* The command-line options: one table for parsing, for the check that an
 * option applies to the command, and for each command's --help. */
#ifndef TK_CLI_OPTIONS_H
#define TK_CLI_OPTIONS_H

#include "cli.h"

enum {
	OPT_RAW_ORDER = 256,
	OPT_BEGIN,
	OPT_END,
	OPT_TIME,
	OPT_PID,
	OPT_TID,
	OPT_CPU,
	OPT_CLOCK_GMT,
	OPT_TOD,
	OPT_SORT,
	OPT_TOP,
	OPT_STATE,
	OPT_LATENCY,
	OPT_LINREG,
	OPT_BYTE_ORDER,
	OPT_COMPRESS,
	OPT_PACKET_SIZE,
	OPT_PACKETIZED,
	OPT_TRACKS,
	OPT_PROGRESS,
	OPT_NO_PROGRESS,
	OPT_FORCE,
	OPT_SCHEDULER, /* report --scheduler/--workers: listed for --help; */
	OPT_WORKERS,   /* cmd_report_cluster.c takes them before parsing */
	OPT_CTF_VERSION,
	OPT_CHILDREN,
	OPT_CALL_GRAPH,
	OPT_PERCENT_LIMIT,
	OPT_NO_CHILDREN,
	OPT_PER_THREAD,
	OPT_SHOW_FIRST, /* OPT_SHOW_FIRST + i: the i-th --show-...-events */
};

typedef struct tk_cli_opt {
	const char *name; /* long name */
	int has_arg;      /* no_argument / required_argument */
	int val;          /* short letter or OPT_* */
	unsigned verbs;   /* TK_VERB_* bits it applies to */
	const char *arg;  /* the value's name in --help, or NULL */
	const char *help; /* one line */
} tk_cli_opt;

extern const tk_cli_opt tk_cli_opts[];
extern const size_t tk_cli_n_opts;

/* The verb's bit, or 0 when unknown. */
unsigned tk_cli_verb_bit(const char *verb);

#endif
