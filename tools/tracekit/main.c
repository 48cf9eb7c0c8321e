/* tracekit: the command-line tool. Dispatches to one cmd_<verb>.c each. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

const char tk_usage_text[] =
    "usage: tracekit COMMAND [OPTIONS] FILE...\n"
    "\n"
    "Read, print, convert and report perf.data, CTF, CPEL/elog and DCPI files.\n"
    "The input format is detected from the content; '-' reads stdin.\n"
    "\n"
    "commands:\n"
    "  info FILE...              what is in it: format, header, features, streams, counts\n"
    "  stats FILE...             counts per record/event type, per CPU, lost, time span\n"
    "  print FILE... [options]   one line per event, in time order\n"
    "  convert IN... -o OUT      convert between formats (--to FORMAT)\n"
    "  report FILE... [options]  aggregations (top symbols, latency, state)\n"
    "  diff A B [options]        two profiles compared per symbol\n"
    "  sql FILE... [QUERY]       SQL over the files' tables (a prompt when no query)\n"
    "  record [opts] [-- CMD]    sample into perf.data (perf record's options)\n"
    "  view FILE... -o OUT.html  a self-contained HTML timeline (--open: a browser)\n"
    "\n"
    "options:\n"
    "  -f, --format STYLE        print style: text, json (and per format: babeltrace,\n"
    "                            metadata, perf-script, cpeldump, elog, dcpicat)\n"
    "                            sql: table, csv, json\n"
    "      --file F              sql: the statements in F (-f F after sql)\n"
    "  -a, --all                 perf: print every record, not only samples; convert\n"
    "                            also comm/exit/fork/mmap/mmap2 (as perf data convert)\n"
    "      --raw-order           file order instead of time order\n"
    "  -n, --limit N             stop after N events\n"
    "      --begin T, --end T    time range: seconds (176.5, 2583), a unit (10ms,\n"
    "                            2583ns), HH:MM:SS.ns or YYYY-MM-DD HH:MM:SS.ns\n"
    "      --time RANGE          perf's START,END, P%/N (N-th P% slice) or P%-Q%\n"
    "  -e, --event NAMES         only these events (comma-separated globs)\n"
    "      --pid L, --tid L, --cpu L   only these processes, threads or CPUs\n"
    "                            (lists and ranges: 18,21140 or 0-1,3)\n"
    "  -I, --input-format F      perf, ctf, cpel, elog, dcpi (skip detection)\n"
    "  -o, --output OUT          convert: output path ('-' for stdout where possible)\n"
    "  -t, --to F                convert: ctf, ctf2, perf, cpel, dcpi, chrome, json, folded,\n"
    "                            sqlite (tables of `tracekit sql`), pprof, speedscope, svg\n"
    "      --byte-order B        convert: big, little or native output byte order\n"
    "      --compress            convert to perf: zstd-compressed records\n"
    "      --ctf-packet-size N   convert to CTF: packet size in bytes\n"
    "      --ctf-packetized-metadata  convert to CTF: packetized metadata\n"
    "      --ctf-version V       convert to CTF: 1 (CTF 1.8, default) or 2 (CTF 2)\n"
    "      --cpel-tracks T       convert to CPEL: a track per thread or per cpu\n"
    "      --force               convert to CTF: replace a non-empty OUT directory\n"
    "      --sort KEY            report: symbol, image or address (profiles);\n"
    "                            total, count, mean, max or name (time reports)\n"
    "      --top N               report: the N largest rows\n"
    "      --state EVENT         report: time between occurrences of EVENT per track\n"
    "      --latency A,B         report: A -> B latency per track\n"
    "      --linreg A,B          report: linear regression of A -> B intervals\n"
    "      --scheduler ADDR      report: one profile of all FILEs on a Dask cluster\n"
    "      --workers N           report: the same on a local cluster of N workers\n"
    "      --children            report, perf.data: Children and Self columns (perf's)\n"
    "  -g, --call-graph ORDER    report: call-graph trees, caller or callee first\n"
    "      --percent-limit P     report: hide call-graph branches under P% (0.5)\n"
    "      --no-children, --per-thread  report, perf.data: perf's self-only table;\n"
    "                            one table per thread (--sort pid,comm,dso,sym)\n"
    "      --progress, --no-progress  progress on stderr (default: when a terminal)\n"
    "      --clock-gmt           babeltrace style: print times in UTC\n"
    "      --tod                 perf -> CTF/JSON: the clock offset to the time of day\n"
    "                            (as perf data convert --tod; recordings made with -k)\n"
    "      --show-task-events, --show-mmap-events, --show-switch-events,\n"
    "      --show-lost-events, --show-namespace-events, --show-cgroup-events,\n"
    "      --show-bpf-events, --show-text-poke-events, --show-round-events\n"
    "                            perf-script style: also these records, as perf script\n"
    "  -c, --count N, -F, --freq HZ  record: a sample every N events, or HZ a second\n"
    "      --all-cpus, --duration SECS  record: every CPU (-a); stop after SECS\n"
    "      --switch-events       record: context switch records\n"
    "      --call-graph fp|dwarf[,SIZE]  record: call graphs, DWARF: stack copies\n"
    "      --mmap-pages N, --clockid CLOCK  record: ring pages (-m), sample clock (-k)\n"
    "      --profile-db DIR, --epoch T  record: DCPI profile database, epochs (10m)\n"
    "  -q, --quiet               no warnings\n"
    "  -v, --verbose             more detail\n"
    "  -h, --help                this text (COMMAND --help: that command's options)\n"
    "  -V, --version             the version\n"
    "\n"
    "With no FILE, ./perf.data is read; a directory holding perf.data names it.\n"
    "\n"
    "exit status: 0 success, 1 bad input or failed output, 2 usage error,\n"
    "130 interrupted.\n";

int main(int argc, char **argv)
{
	tk_cli_heap_huge_pages();
	tk_cli_usage = tk_usage_text;
	if (argc < 2) {
		fputs(tk_usage_text, stderr);
		return TK_EXIT_USAGE;
	}
	const char *verb = argv[1];
	if (strcmp(verb, "-h") == 0 || strcmp(verb, "--help") == 0 || strcmp(verb, "help") == 0) {
		fputs(tk_usage_text, stdout);
		return 0;
	}
	if (strcmp(verb, "-V") == 0 || strcmp(verb, "--version") == 0) {
		printf("tracekit %s\n", TRACEKIT_VERSION);
		return 0;
	}
	static const struct {
		const char *name;
		int (*run)(int, char **);
	} commands[] = {
	    {"info", tk_cmd_info},       {"stats", tk_cmd_stats},   {"print", tk_cmd_print},
	    {"convert", tk_cmd_convert}, {"report", tk_cmd_report}, {"diff", tk_cmd_diff},
	    {"sql", tk_cmd_sql},         {"record", tk_cmd_record}, {"view", tk_cmd_view},
	};
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(verb, commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "tracekit: unknown command '%s' (try tracekit --help)\n", verb);
	return TK_EXIT_USAGE;
}
