/* The option table; see cli_options.h. Options that do not apply to a
 * command are refused (exit 2) rather than silently ignored. */
#include <getopt.h>
#include <string.h>

#include "cli_options.h"

#define ALL                                                                                        \
	(TK_VERB_INFO | TK_VERB_STATS | TK_VERB_PRINT | TK_VERB_CONVERT | TK_VERB_REPORT |         \
	 TK_VERB_DIFF)
#define PRINT   TK_VERB_PRINT
#define CONVERT TK_VERB_CONVERT
#define REPORT  TK_VERB_REPORT
#define DIFF    TK_VERB_DIFF
/* the event filters, honoured by every command that reads events */
#define FILTERS (PRINT | CONVERT | REPORT)
#define SHOW(i, what)                                                                              \
	{                                                                                          \
		"show-" what "-events", no_argument, OPT_SHOW_FIRST + (i), PRINT, NULL,            \
		    "perf-script style: also the " what " records, as perf script"                 \
	}

const tk_cli_opt tk_cli_opts[] = {
    {"format", required_argument, 'f', PRINT, "STYLE",
     "text, json, babeltrace, metadata, perf-script, cpeldump, elog, dcpicat"},
    {"all", no_argument, 'a', PRINT | CONVERT, NULL,
     "perf: every record, not only samples (convert: also comm/exit/fork/mmap)"},
    {"raw-order", no_argument, OPT_RAW_ORDER, PRINT | CONVERT | REPORT, NULL,
     "file order instead of time order"},
    {"limit", required_argument, 'n', PRINT | CONVERT, "N", "stop after N events (N >= 1)"},
    {"begin", required_argument, OPT_BEGIN, FILTERS, "T",
     "from time T: seconds (176.5), with a unit (2583ns, 10ms), HH:MM:SS.ns"},
    {"end", required_argument, OPT_END, FILTERS, "T", "up to time T (same forms as --begin)"},
    {"time", required_argument, OPT_TIME, FILTERS, "RANGE",
     "perf's START,END (either may be empty), P%/N or P%-Q%"},
    {"event", required_argument, 'e', FILTERS | DIFF, "NAMES",
     "only these events (comma-separated globs)"},
    {"pid", required_argument, OPT_PID, FILTERS, "LIST", "only these processes (18,21140)"},
    {"tid", required_argument, OPT_TID, FILTERS, "LIST", "only these threads"},
    {"cpu", required_argument, OPT_CPU, FILTERS, "LIST", "only these CPUs (0-1,3)"},
    {"input-format", required_argument, 'I', ALL, "F",
     "perf, ctf, cpel, elog, dcpi (skip detection)"},
    {"output", required_argument, 'o', CONVERT, "OUT",
     "output path ('-' for stdout where the format streams)"},
    {"to", required_argument, 't', CONVERT, "F",
     "ctf, ctf2, perf, cpel, dcpi, chrome, json, folded, sqlite, pprof, speedscope, svg"},
    {"clock-gmt", no_argument, OPT_CLOCK_GMT, PRINT | CONVERT | REPORT, NULL,
     "times of day in UTC (babeltrace style, --begin HH:MM)"},
    {"tod", no_argument, OPT_TOD, PRINT | CONVERT, NULL,
     "perf: the clock offset to the time of day (as perf data convert --tod)"},
    {"sort", required_argument, OPT_SORT, REPORT | DIFF, "KEY",
     "symbol, image or address (profiles); total, count, mean, max, name"},
    {"top", required_argument, OPT_TOP, REPORT | DIFF, "N", "the N largest rows"},
    {"state", required_argument, OPT_STATE, REPORT, "EVENT",
     "time between occurrences of EVENT per track"},
    {"latency", required_argument, OPT_LATENCY, REPORT, "A,B", "A -> B latency per track"},
    {"linreg", required_argument, OPT_LINREG, REPORT, "A,B",
     "linear regression of A -> B intervals"},
    {"scheduler", required_argument, OPT_SCHEDULER, REPORT, "ADDR",
     "one profile of all FILEs on a Dask cluster (Python)"},
    {"workers", required_argument, OPT_WORKERS, REPORT, "N",
     "the same on a local cluster of N workers"},
    {"byte-order", required_argument, OPT_BYTE_ORDER, CONVERT, "B",
     "big, little or native output byte order"},
    {"compress", no_argument, OPT_COMPRESS, CONVERT, NULL, "to perf: zstd-compressed records"},
    {"ctf-packet-size", required_argument, OPT_PACKET_SIZE, CONVERT, "N",
     "to CTF: packet size in bytes"},
    {"ctf-packetized-metadata", no_argument, OPT_PACKETIZED, CONVERT, NULL,
     "to CTF: packetized metadata"},
    {"cpel-tracks", required_argument, OPT_TRACKS, CONVERT, "T",
     "to CPEL: a track per thread or per cpu"},
    {"progress", no_argument, OPT_PROGRESS, CONVERT, NULL, "progress on stderr"},
    {"no-progress", no_argument, OPT_NO_PROGRESS, CONVERT, NULL, "no progress on stderr"},
    {"force", no_argument, OPT_FORCE, CONVERT, NULL,
     "replace an existing non-empty output directory"},
    {"quiet", no_argument, 'q', ALL, NULL, "no warnings"},
    {"verbose", no_argument, 'v', ALL, NULL, "more detail"},
    {"help", no_argument, 'h', ALL, NULL, "this text"},
    SHOW(0, "task"),
    SHOW(1, "mmap"),
    SHOW(2, "switch"),
    SHOW(3, "lost"),
    SHOW(4, "namespace"),
    SHOW(5, "cgroup"),
    SHOW(6, "bpf"),
    SHOW(7, "text-poke"),
    SHOW(8, "round"),
    {"ctf-version", required_argument, OPT_CTF_VERSION, CONVERT, "V",
     "to CTF: 1 (CTF 1.8, the default) or 2 (CTF 2, JSON metadata)"},
    {"children", no_argument, OPT_CHILDREN, REPORT | DIFF, NULL,
     "perf.data: perf report --children (Children and Self columns)"},
    {"call-graph", required_argument, 'g', REPORT, "ORDER",
     "perf.data: call-graph trees under each row, caller or callee first"},
    {"percent-limit", required_argument, OPT_PERCENT_LIMIT, REPORT, "P",
     "call graphs: hide branches under P% (default 0.5)"},
    {"no-children", no_argument, OPT_NO_CHILDREN, REPORT | DIFF, NULL,
     "perf.data: perf report's Overhead (self) table"},
    {"per-thread", no_argument, OPT_PER_THREAD, REPORT, NULL,
     "perf.data: one perf report table per thread"},
};
const size_t tk_cli_n_opts = sizeof tk_cli_opts / sizeof tk_cli_opts[0];

unsigned tk_cli_verb_bit(const char *verb)
{
	static const char *const verbs[] = {"info", "stats", "print", "convert", "report", "diff"};
	for (unsigned i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
		if (strcmp(verb, verbs[i]) == 0)
			return 1u << i;
	return 0;
}
