/* Option parsing and error reporting shared by the subcommands. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "output/perf_script_events.h"

static tk_writer *stdout_writer;

tk_writer *tk_cli_stdout(void)
{
	if (!stdout_writer) {
		if (tk_writer_open_fd(STDOUT_FILENO, "stdout", &stdout_writer, NULL) != TK_OK) {
			fputs("tracekit: out of memory\n", stderr);
			exit(TK_EXIT_BAD_INPUT);
		}
	}
	return stdout_writer;
}

int tk_cli_finish(int rc)
{
	if (!stdout_writer)
		return rc;
	tk_error err;
	tk_error_clear(&err);
	tk_status st = tk_writer_flush(stdout_writer, &err);
	int werr = stdout_writer->error;
	tk_writer_abort(stdout_writer);
	stdout_writer = NULL;
	if (st != TK_OK && werr != EPIPE) {
		fprintf(stderr, "tracekit: stdout: %s\n", err.message);
		return TK_EXIT_BAD_INPUT;
	}
	return rc;
}

int tk_cli_fail(const tk_error *err, const char *fallback_file)
{
	const char *file = err->file[0] ? err->file : fallback_file;
	/* Make sure what was printed before the error comes out before it. */
	if (stdout_writer)
		tk_writer_flush(stdout_writer, NULL);
	if (file && *file && err->offset != TK_NO_OFFSET)
		fprintf(stderr, "tracekit: %s: offset 0x%" PRIx64 ": %s\n", file, err->offset,
			err->message);
	else if (file && *file)
		fprintf(stderr, "tracekit: %s: %s\n", file, err->message);
	else
		fprintf(stderr, "tracekit: %s\n", err->message);
	return TK_EXIT_BAD_INPUT;
}

void tk_cli_log(void *user, int level, const char *msg)
{
	const tk_cli_options *opt = user;
	if (opt && opt->quiet)
		return;
	if (level > 0 && !(opt && opt->verbose))
		return;
	if (stdout_writer)
		tk_writer_flush(stdout_writer, NULL);
	fprintf(stderr, "tracekit: %s%s\n", level == 0 ? "warning: " : "", msg);
}

/* Seconds with a fraction ("176.5") or integer nanoseconds ("176500000000"). */
static int parse_time(const char *s, uint64_t *ns)
{
	char *end;
	errno = 0;
	if (!strchr(s, '.')) {
		unsigned long long v = strtoull(s, &end, 10);
		if (errno || *end || end == s)
			return -1;
		*ns = v;
		return 0;
	}
	unsigned long long sec = strtoull(s, &end, 10);
	if (errno || *end != '.')
		return -1;
	const char *frac = end + 1;
	uint64_t f = 0;
	int digits = 0;
	for (; *frac; frac++) {
		if (*frac < '0' || *frac > '9')
			return -1;
		if (digits < 9) {
			f = f * 10 + (uint64_t)(*frac - '0');
			digits++;
		}
	}
	while (digits++ < 9)
		f *= 10;
	if (sec > UINT64_MAX / 1000000000ULL)
		return -1;
	*ns = sec * 1000000000ULL + f;
	return 0;
}

static int parse_int(const char *s, int64_t *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 0);
	if (errno || *end || end == s)
		return -1;
	*out = v;
	return 0;
}

int tk_cli_parse(tk_cli *cli, const char *verb, int argc, char **argv)
{
	enum {
		OPT_RAW_ORDER = 256,
		OPT_BEGIN,
		OPT_END,
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
		OPT_SHOW_FIRST, /* OPT_SHOW_FIRST + i: --show-...-events, show_bits[i] */
	};
	/* perf script's side-band record options (print --format perf-script),
	 * in the order of their longopts entries below */
	static const unsigned show_bits[] = {
	    TK_SHOW_TASK_EVENTS, TK_SHOW_MMAP_EVENTS,      TK_SHOW_SWITCH_EVENTS,
	    TK_SHOW_LOST_EVENTS, TK_SHOW_NAMESPACE_EVENTS, TK_SHOW_CGROUP_EVENTS,
	    TK_SHOW_BPF_EVENTS,  TK_SHOW_TEXT_POKE_EVENTS, TK_SHOW_ROUND_EVENTS,
	};
	static const struct option longopts[] = {
	    {"format", required_argument, NULL, 'f'},
	    {"all", no_argument, NULL, 'a'},
	    {"raw-order", no_argument, NULL, OPT_RAW_ORDER},
	    {"limit", required_argument, NULL, 'n'},
	    {"begin", required_argument, NULL, OPT_BEGIN},
	    {"end", required_argument, NULL, OPT_END},
	    {"event", required_argument, NULL, 'e'},
	    {"pid", required_argument, NULL, OPT_PID},
	    {"tid", required_argument, NULL, OPT_TID},
	    {"cpu", required_argument, NULL, OPT_CPU},
	    {"input-format", required_argument, NULL, 'I'},
	    {"output", required_argument, NULL, 'o'},
	    {"to", required_argument, NULL, 't'},
	    {"clock-gmt", no_argument, NULL, OPT_CLOCK_GMT},
	    {"tod", no_argument, NULL, OPT_TOD},
	    {"sort", required_argument, NULL, OPT_SORT},
	    {"top", required_argument, NULL, OPT_TOP},
	    {"state", required_argument, NULL, OPT_STATE},
	    {"latency", required_argument, NULL, OPT_LATENCY},
	    {"linreg", required_argument, NULL, OPT_LINREG},
	    {"byte-order", required_argument, NULL, OPT_BYTE_ORDER},
	    {"compress", no_argument, NULL, OPT_COMPRESS},
	    {"ctf-packet-size", required_argument, NULL, OPT_PACKET_SIZE},
	    {"ctf-packetized-metadata", no_argument, NULL, OPT_PACKETIZED},
	    {"cpel-tracks", required_argument, NULL, OPT_TRACKS},
	    {"progress", no_argument, NULL, OPT_PROGRESS},
	    {"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
	    {"quiet", no_argument, NULL, 'q'},
	    {"verbose", no_argument, NULL, 'v'},
	    {"help", no_argument, NULL, 'h'},
	    {"show-task-events", no_argument, NULL, OPT_SHOW_FIRST + 0},
	    {"show-mmap-events", no_argument, NULL, OPT_SHOW_FIRST + 1},
	    {"show-switch-events", no_argument, NULL, OPT_SHOW_FIRST + 2},
	    {"show-lost-events", no_argument, NULL, OPT_SHOW_FIRST + 3},
	    {"show-namespace-events", no_argument, NULL, OPT_SHOW_FIRST + 4},
	    {"show-cgroup-events", no_argument, NULL, OPT_SHOW_FIRST + 5},
	    {"show-bpf-events", no_argument, NULL, OPT_SHOW_FIRST + 6},
	    {"show-text-poke-events", no_argument, NULL, OPT_SHOW_FIRST + 7},
	    {"show-round-events", no_argument, NULL, OPT_SHOW_FIRST + 8},
	    {"force", no_argument, NULL, OPT_FORCE},
	    {NULL, 0, NULL, 0},
	};
	_Static_assert(sizeof show_bits / sizeof show_bits[0] == 9,
		       "one longopts entry per show option");
	memset(cli, 0, sizeof *cli);
	cli->opt.style = "text";
	cli->opt.pid = cli->opt.tid = cli->opt.cpu = -1;
	cli->progress = -1;
	cli->opt.log = tk_cli_log;
	cli->opt.log_user = &cli->opt;
	cli->sink.log = tk_cli_log;
	cli->sink.log_user = &cli->opt;
	optind = 1;
	opterr = 0;
	int c;
	int64_t v;
	while ((c = getopt_long(argc, argv, ":f:an:e:I:o:t:qvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': cli->opt.style = optarg; break;
		case 'a': cli->opt.all_records = true; break;
		case OPT_RAW_ORDER: cli->opt.raw_order = true; break;
		case 'n':
			if (parse_int(optarg, &v) || v < 0)
				goto bad_value;
			cli->opt.limit = (uint64_t)v;
			break;
		case OPT_BEGIN:
			if (parse_time(optarg, &cli->opt.begin_ns))
				goto bad_value;
			cli->opt.has_begin = true;
			break;
		case OPT_END:
			if (parse_time(optarg, &cli->opt.end_ns))
				goto bad_value;
			cli->opt.has_end = true;
			break;
		case 'e': cli->opt.events = optarg; break;
		case OPT_PID:
			if (parse_int(optarg, &cli->opt.pid))
				goto bad_value;
			break;
		case OPT_TID:
			if (parse_int(optarg, &cli->opt.tid))
				goto bad_value;
			break;
		case OPT_CPU:
			if (parse_int(optarg, &cli->opt.cpu))
				goto bad_value;
			break;
		case 'I':
			cli->input_format = tk_format_from_name(optarg);
			if (cli->input_format == TK_FORMAT_UNKNOWN)
				goto bad_value;
			break;
		case 'o': cli->output = optarg; break;
		case 't': cli->to = optarg; break;
		case OPT_CLOCK_GMT: cli->opt.clock_gmt = true; break;
		case OPT_TOD: cli->opt.wall_clock = true; break;
		case OPT_SORT: cli->sort = optarg; break;
		case OPT_TOP:
			if (parse_int(optarg, &v) || v < 0)
				goto bad_value;
			cli->top = (uint64_t)v;
			break;
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
		case OPT_PACKET_SIZE:
			if (parse_int(optarg, &v) || v < 512 || v > (1 << 30))
				goto bad_value;
			cli->sink.packet_size = (unsigned)v;
			break;
		case OPT_PACKETIZED: cli->sink.packetized_metadata = true; break;
		case OPT_TRACKS:
			if (strcmp(optarg, "cpu") && strcmp(optarg, "thread"))
				goto bad_value;
			cli->sink.tracks = optarg;
			break;
		case OPT_PROGRESS: cli->progress = 1; break;
		case OPT_NO_PROGRESS: cli->progress = 0; break;
		case 'q': cli->opt.quiet = true; break;
		case 'v': cli->opt.verbose = true; break;
		case 'h': fputs(tk_usage_text, stdout); exit(0);
		case OPT_SHOW_FIRST + 0:
		case OPT_SHOW_FIRST + 1:
		case OPT_SHOW_FIRST + 2:
		case OPT_SHOW_FIRST + 3:
		case OPT_SHOW_FIRST + 4:
		case OPT_SHOW_FIRST + 5:
		case OPT_SHOW_FIRST + 6:
		case OPT_SHOW_FIRST + 7:
		case OPT_SHOW_FIRST + 8:
			cli->opt.script_show |= show_bits[c - OPT_SHOW_FIRST];
			break;
		case OPT_FORCE: cli->sink.force = true; break;
		case ':':
			fprintf(stderr, "tracekit %s: option '%s' needs a value\n", verb,
				argv[optind - 1]);
			return TK_EXIT_USAGE;
		default:
			fprintf(stderr, "tracekit %s: unknown option '%s'\n", verb,
				argv[optind - 1]);
			return TK_EXIT_USAGE;
		}
		continue;
	bad_value:
		for (const struct option *o = longopts; o->name; o++) {
			if (o->val == c) {
				fprintf(stderr, "tracekit %s: invalid value '%s' for --%s\n", verb,
					optarg, o->name);
				return TK_EXIT_USAGE;
			}
		}
		fprintf(stderr, "tracekit %s: invalid value '%s'\n", verb, optarg);
		return TK_EXIT_USAGE;
	}
	/* perf script turns its time ordering off to show the rounds where
	 * they are in the file */
	if ((cli->opt.script_show & TK_SHOW_ROUND_EVENTS) &&
	    strcmp(cli->opt.style, "perf-script") == 0)
		cli->opt.raw_order = true;
	cli->inputs = (const char **)(argv + optind);
	cli->n_inputs = argc - optind;
	if (cli->n_inputs == 0) {
		fprintf(stderr, "tracekit %s: no input file (try tracekit --help)\n", verb);
		return TK_EXIT_USAGE;
	}
	/* A reader that stops early (head) is not an error. */
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

tk_status tk_cli_format_of(const tk_cli *cli, const char *path, const tk_format_ops **ops,
			   tk_error *err)
{
	tk_error_clear(err);
	tk_error_set_file(err, path);
	tk_format fmt = cli->input_format ? cli->input_format : tk_detect_path(path, err);
	if (fmt == TK_FORMAT_UNKNOWN)
		return err->status ? err->status : TK_ERR_UNSUPPORTED;
	*ops = tk_format_ops_for(fmt);
	if (!*ops)
		return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
				    "format %s cannot be read", tk_format_name(fmt));
	return TK_OK;
}
