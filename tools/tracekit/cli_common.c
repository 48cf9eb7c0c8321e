/* Option parsing shared by the subcommands (output and errors: cli_io.c). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "output/report_sort.h"
#include "cli_options.h"
#include "output/perf_script_events.h"

/* A count such as --limit or --top: decimal, at least `min`; values past
 * 2^64 saturate (a huge limit means "all", not an error). */
static int parse_count(const char *s, uint64_t min, uint64_t *out)
{
	if (*s < '0' || *s > '9')
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (*end)
		return -1;
	if (errno == ERANGE)
		v = UINT64_MAX;
	if (v < min)
		return -1;
	*out = v;
	return 0;
}

/* The print styles any format has; a style a format lacks is refused later. */
static const char *const print_styles[] = {"text",     "json",        "babeltrace",
					   "metadata", "perf-script", "cpeldump",
					   "elog",     "dcpicat",     "listing"};

static int check_style(const char *verb, const char *style)
{
	for (size_t i = 0; i < sizeof print_styles / sizeof print_styles[0]; i++)
		if (strcmp(style, print_styles[i]) == 0)
			return 0;
	fprintf(stderr, "tracekit %s: unknown print style '%s'", verb, style);
	for (size_t i = 0; i < sizeof print_styles / sizeof print_styles[0]; i++)
		if (*style && strncmp(print_styles[i], style, strlen(style)) == 0) {
			fprintf(stderr, "; did you mean '%s'?", print_styles[i]);
			break;
		}
	for (size_t i = 0; i < sizeof print_styles / sizeof print_styles[0]; i++)
		fprintf(stderr, "%s%s", i ? ", " : " (styles: ", print_styles[i]);
	fputs(")\n", stderr);
	return TK_EXIT_USAGE;
}

/* The sort keys of profiles and of time reports; which one a report takes
 * is checked when it runs. perf's comma lists are one key too many. */
static int check_sort(const char *verb, const char *key)
{
	static const char *const keys[] = {"symbol", "image", "address", "total",
					   "count",  "mean",  "max",     "name"};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (strcmp(key, keys[i]) == 0)
			return 0;
	if ((strcmp(verb, "report") == 0 || strcmp(verb, "diff") == 0) &&
	    tk_rsort_is_perf_list(key))
		return 0; /* perf report's keys: the perf-style table */
	fprintf(stderr,
		"tracekit %s: unknown sort key '%s' (one of symbol, image, address for "
		"profiles; total, count, mean, max, name for time reports; perf.data: a list "
		"of pid, comm, dso, sym, srcline as perf report's --sort)\n",
		verb, key);
	return TK_EXIT_USAGE;
}

static int check_to(const char *verb, const char *to)
{
	if (tk_format_from_name(to) != TK_FORMAT_UNKNOWN || strcmp(to, "sqlite") == 0)
		return 0;
	fprintf(stderr,
		"tracekit %s: unknown output format '%s' (ctf, ctf2, perf, cpel, dcpi, chrome, "
		"json, folded, sqlite, pprof, speedscope, svg)\n",
		verb, to);
	return TK_EXIT_USAGE;
}

static bool is_dir(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* perf's habit: a directory holding perf.data names it (perf record -o DIR
 * writes DIR/perf.data with --threads; people also keep one per folder). */
static const char *perf_data_in(const char *dir)
{
	char probe[4096];
	if (snprintf(probe, sizeof probe, "%s/perf.data", dir) >= (int)sizeof probe)
		return NULL;
	struct stat sb;
	if (stat(probe, &sb) != 0 || !S_ISREG(sb.st_mode))
		return NULL;
	/* a CTF trace directory is read as CTF, whatever else it holds */
	if (snprintf(probe, sizeof probe, "%s/metadata", dir) < (int)sizeof probe &&
	    stat(probe, &sb) == 0)
		return NULL;
	size_t n = strlen(dir) + sizeof "/perf.data";
	char *path = malloc(n);
	if (path)
		snprintf(path, n, "%s/perf.data", dir);
	return path;
}

int tk_cli_parse(tk_cli *cli, const char *verb, int argc, char **argv)
{
	/* perf script's side-band record options (print --format perf-script),
	 * in the order of their OPT_SHOW_FIRST + i entries */
	static const unsigned show_bits[] = {
	    TK_SHOW_TASK_EVENTS, TK_SHOW_MMAP_EVENTS,      TK_SHOW_SWITCH_EVENTS,
	    TK_SHOW_LOST_EVENTS, TK_SHOW_NAMESPACE_EVENTS, TK_SHOW_CGROUP_EVENTS,
	    TK_SHOW_BPF_EVENTS,  TK_SHOW_TEXT_POKE_EVENTS, TK_SHOW_ROUND_EVENTS,
	};
	_Static_assert(sizeof show_bits / sizeof show_bits[0] == 9, "one entry per show option");
	static struct option longopts[64];
	_Static_assert(sizeof longopts / sizeof longopts[0] > 48, "room for every option");
	for (size_t i = 0; i < tk_cli_n_opts; i++)
		longopts[i] = (struct option){tk_cli_opts[i].name, tk_cli_opts[i].has_arg, NULL,
					      tk_cli_opts[i].val};
	longopts[tk_cli_n_opts] = (struct option){NULL, 0, NULL, 0};
	unsigned verb_bit = tk_cli_verb_bit(verb);

	memset(cli, 0, sizeof *cli);
	cli->opt.style = "text";
	cli->progress = -1;
	cli->percent_limit = 0.5;
	cli->opt.log = tk_cli_log;
	cli->opt.log_user = &cli->opt;
	cli->sink.log = tk_cli_log;
	cli->sink.log_user = &cli->opt;
	tk_cli_time begin = {0}, end = {0};
	bool has_begin = false, has_end = false, has_time = false;
	const char *begin_text = NULL, *end_text = NULL;
	optind = 1;
	opterr = 0;
	int c, longindex;
	while ((c = getopt_long(argc, argv, ":f:an:e:I:o:t:qvhg:", longopts, &longindex)) != -1) {
		const tk_cli_opt *o = NULL;
		for (size_t i = 0; i < tk_cli_n_opts && c != '?' && c != ':'; i++)
			if (tk_cli_opts[i].val == c)
				o = &tk_cli_opts[i];
		if (o && verb_bit && !(o->verbs & verb_bit)) {
			fprintf(stderr,
				"tracekit %s: option --%s does not apply to %s (see tracekit %s "
				"--help)\n",
				verb, o->name, verb, verb);
			return TK_EXIT_USAGE;
		}
		switch (c) {
		case 'f':
			if (check_style(verb, optarg))
				return TK_EXIT_USAGE;
			cli->opt.style = optarg;
			break;
		case 'a': cli->opt.all_records = true; break;
		case OPT_RAW_ORDER: cli->opt.raw_order = true; break;
		case 'n':
			if (parse_count(optarg, 1, &cli->opt.limit))
				goto bad_value;
			break;
		case OPT_BEGIN: begin_text = optarg; break;
		case OPT_END: end_text = optarg; break;
		case OPT_TIME: {
			const char *why = tk_cli_time_range_parse(
			    optarg, cli->opt.clock_gmt, &begin, &has_begin, &end, &has_end);
			if (why) {
				fprintf(stderr, "tracekit %s: --time '%s': %s\n", verb, optarg,
					why);
				return TK_EXIT_USAGE;
			}
			has_time = true;
			break;
		}
		case 'e': cli->opt.events = optarg; break;
		case OPT_PID:
			if (tk_id_set_parse(&cli->opt.pid, optarg))
				goto bad_list;
			break;
		case OPT_TID:
			if (tk_id_set_parse(&cli->opt.tid, optarg))
				goto bad_list;
			break;
		case OPT_CPU:
			if (tk_id_set_parse(&cli->opt.cpu, optarg))
				goto bad_list;
			break;
		case 'I':
			cli->input_format = tk_format_from_name(optarg);
			if (cli->input_format == TK_FORMAT_UNKNOWN)
				goto bad_value;
			break;
		case 'o': cli->output = optarg; break;
		case 't':
			if (!strcmp(optarg, "ctf2")) { /* CTF 2: the CTF writer, JSON metadata */
				cli->to = "ctf";
				cli->sink.ctf_version = 2;
				break;
			}
			if (check_to(verb, optarg))
				return TK_EXIT_USAGE;
			cli->to = optarg;
			break;
		case OPT_CLOCK_GMT: cli->opt.clock_gmt = true; break;
		case OPT_TOD: cli->opt.wall_clock = true; break;
		case OPT_SORT:
			if (check_sort(verb, optarg))
				return TK_EXIT_USAGE;
			cli->sort = optarg;
			break;
		case OPT_TOP:
			if (parse_count(optarg, 1, &cli->top))
				goto bad_value;
			break;
		case OPT_CHILDREN: cli->children = true; break;
		case OPT_NO_CHILDREN: cli->no_children = true; break;
		case OPT_PER_THREAD: cli->per_thread = true; break;
		case 'g':
			if (strcmp(optarg, "caller") == 0)
				cli->call_graph = 1;
			else if (strcmp(optarg, "callee") == 0)
				cli->call_graph = 2;
			else
				goto bad_value;
			break;
		case OPT_PERCENT_LIMIT: {
			char *stop;
			cli->percent_limit = strtod(optarg, &stop);
			if (stop == optarg || *stop || !(cli->percent_limit >= 0) ||
			    cli->percent_limit > 100)
				goto bad_value;
			break;
		}
		case OPT_STATE: cli->report_state = optarg; break;
		case OPT_LATENCY: cli->report_latency = optarg; break;
		case OPT_LINREG: cli->report_linreg = optarg; break;
		case OPT_BYTE_ORDER:
			if (strcmp(optarg, "big") && strcmp(optarg, "little") &&
			    strcmp(optarg, "native"))
				goto bad_value;
			cli->sink.byte_order = optarg;
			break;
		case OPT_COMPRESS: cli->sink.compress = true; break;
		case OPT_PACKET_SIZE: {
			uint64_t v;
			if (parse_count(optarg, 512, &v) || v > (1 << 30))
				goto bad_value;
			cli->sink.packet_size = (unsigned)v;
			break;
		}
		case OPT_PACKETIZED: cli->sink.packetized_metadata = true; break;
		case OPT_CTF_VERSION:
			if (strcmp(optarg, "1") && strcmp(optarg, "1.8") && strcmp(optarg, "2"))
				goto bad_value;
			cli->sink.ctf_version = optarg[0] == '2' ? 2 : 1;
			break;
		case OPT_TRACKS:
			if (strcmp(optarg, "cpu") && strcmp(optarg, "thread"))
				goto bad_value;
			cli->sink.tracks = optarg;
			break;
		case OPT_PROGRESS: cli->progress = 1; break;
		case OPT_NO_PROGRESS: cli->progress = 0; break;
		case OPT_FORCE: cli->sink.force = true; break;
		case 'q': cli->opt.quiet = true; break;
		case 'v': cli->opt.verbose = true; break;
		case 'h':
			if (verb_bit)
				tk_cli_help(verb, stdout);
			else
				fputs(tk_cli_usage, stdout);
			exit(0);
		case ':':
			fprintf(stderr, "tracekit %s: option '%s' needs a value\n", verb,
				argv[optind - 1]);
			return TK_EXIT_USAGE;
		default:
			if (c >= OPT_SHOW_FIRST && c < OPT_SHOW_FIRST + 9) {
				cli->opt.script_show |= show_bits[c - OPT_SHOW_FIRST];
				break;
			}
			fprintf(stderr,
				"tracekit %s: unknown option '%s' (see tracekit %s --help)\n", verb,
				argv[optind - 1], verb);
			return TK_EXIT_USAGE;
		}
		continue;
	bad_list:
		fprintf(stderr,
			"tracekit %s: invalid list '%s' for --%s (N, N-M, comma-separated, at most "
			"%d parts)\n",
			verb, optarg, o ? o->name : "?", TK_ID_SET_MAX);
		return TK_EXIT_USAGE;
	bad_value:
		fprintf(stderr, "tracekit %s: invalid value '%s' for --%s\n", verb, optarg,
			o ? o->name : "?");
		return TK_EXIT_USAGE;
	}
	/* --begin/--end after all options: --clock-gmt may come later */
	const struct {
		const char *text, *name;
		tk_cli_time *t;
		bool *has;
	} times[] = {{begin_text, "begin", &begin, &has_begin}, {end_text, "end", &end, &has_end}};
	for (size_t i = 0; i < 2; i++) {
		if (!times[i].text)
			continue;
		if (has_time) {
			fprintf(stderr, "tracekit %s: --%s and --time both give the range\n", verb,
				times[i].name);
			return TK_EXIT_USAGE;
		}
		const char *why =
		    tk_cli_time_parse(times[i].text, false, cli->opt.clock_gmt, times[i].t);
		if (why) {
			fprintf(stderr, "tracekit %s: --%s '%s': %s\n", verb, times[i].name,
				times[i].text, why);
			return TK_EXIT_USAGE;
		}
		*times[i].has = true;
	}
	/* perf script turns its time ordering off to show the rounds where
	 * they are in the file */
	if ((cli->opt.script_show & TK_SHOW_ROUND_EVENTS) &&
	    strcmp(cli->opt.style, "perf-script") == 0)
		cli->opt.raw_order = true;
	cli->inputs = (const char **)(argv + optind);
	cli->n_inputs = argc - optind;
	static const char *default_input[] = {"perf.data"};
	if (cli->n_inputs == 0 && strcmp(verb, "diff") != 0) {
		/* as perf: ./perf.data when no file is named */
		if (access("perf.data", F_OK) != 0) {
			fprintf(stderr,
				"tracekit %s: no input file, and no ./perf.data (try tracekit %s "
				"--help)\n",
				verb, verb);
			return TK_EXIT_USAGE;
		}
		cli->inputs = default_input;
		cli->n_inputs = 1;
	}
	if (cli->n_inputs == 0) {
		fprintf(stderr, "tracekit %s: no input file (try tracekit %s --help)\n", verb,
			verb);
		return TK_EXIT_USAGE;
	}
	for (int i = 0; i < cli->n_inputs; i++) {
		const char *in = cli->inputs[i];
		if (cli->input_format != TK_FORMAT_CTF && is_dir(in)) {
			const char *p = perf_data_in(in);
			if (p)
				cli->inputs[i] = p; /* lives as long as the process */
		}
	}
	/* A reader that stops early (head) is not an error. */
	signal(SIGPIPE, SIG_IGN);
	bool reading_stdin = false;
	for (int i = 0; i < cli->n_inputs; i++)
		reading_stdin |= strcmp(cli->inputs[i], "-") == 0;
	tk_cli_catch_interrupts(reading_stdin);
	return tk_cli_prepare(cli, verb, &begin, has_begin, &end, has_end);
}
