/* tracekit view FILE... -o view.html [--open]: one self-contained HTML
 * timeline of the inputs (src/view, include/tracekit/view.h).
 *
 * Its few options are parsed here (like sql's), not in the shared option
 * table: none of them means anything to the other commands. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "tracekit/view.h"

static const char view_usage[] =
    "usage: tracekit view FILE... -o OUT.html [--open]\n"
    "\n"
    "Writes one self-contained HTML page (no network) with a timeline of the\n"
    "inputs: tracks per process/thread, CPU, CTF stream or CPEL track; spans,\n"
    "events, counters, samples with their stacks; search, range statistics,\n"
    "flame graph, bookmarks. Several inputs are merged by time.\n"
    "\n"
    "options:\n"
    "  -o, --output OUT          the page to write (required)\n"
    "      --open                also open it with $BROWSER or xdg-open (when there\n"
    "                            is a display)\n"
    "  -a, --all                 perf: also comm/exit/fork/mmap records as events\n"
    "  -q, --quiet               no warnings\n"
    "  -h, --help                this text\n";

static void quiet_log(void *user, int level, const char *msg)
{
	if (*(const bool *)user || level > 0)
		return;
	fprintf(stderr, "tracekit: warning: %s\n", msg);
}

/* Starts the browser without waiting for it. */
static void open_page(const char *path)
{
	if (!getenv("DISPLAY") && !getenv("WAYLAND_DISPLAY")) {
		fprintf(stderr, "tracekit: no display: open %s in a browser\n", path);
		return;
	}
	const char *browser = getenv("BROWSER");
	const char *prog = browser && *browser ? browser : "xdg-open";
	pid_t pid = fork();
	if (pid == 0) {
		/* detach from the terminal's job so Ctrl-C here does not close it */
		setsid();
		execlp(prog, prog, path, (char *)NULL);
		_exit(127);
	}
	if (pid < 0)
		fprintf(stderr, "tracekit: cannot start %s\n", prog);
}

int tk_cmd_view(int argc, char **argv)
{
	enum { OPT_OPEN = 256 };
	static const struct option longs[] = {
	    {"output", required_argument, NULL, 'o'}, {"open", no_argument, NULL, OPT_OPEN},
	    {"all", no_argument, NULL, 'a'},          {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
	};
	const char *out = NULL;
	bool open_it = false, quiet = false, all = false;
	optind = 1;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, ":o:aqh", longs, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case OPT_OPEN: open_it = true; break;
		case 'a': all = true; break;
		case 'q': quiet = true; break;
		case 'h': fputs(view_usage, stdout); return 0;
		case ':':
			fprintf(stderr, "tracekit: view: option %s needs a value\n",
				argv[optind - 1]);
			return TK_EXIT_USAGE;
		default:
			fprintf(stderr, "tracekit: view: unknown option '%s'\n%s", argv[optind - 1],
				view_usage);
			return TK_EXIT_USAGE;
		}
	}
	if (!out) {
		fprintf(stderr, "tracekit: view: -o OUT.html is required\n%s", view_usage);
		return TK_EXIT_USAGE;
	}
	const char *default_input[] = {"perf.data"};
	const char *const *inputs = (const char *const *)argv + optind;
	size_t n = (size_t)(argc - optind);
	if (n == 0) {
		inputs = default_input;
		n = 1;
	}
	for (size_t i = 0; i < n; i++) {
		if (strcmp(inputs[i], out) == 0) {
			fprintf(stderr, "tracekit: view: the output %s is also an input\n", out);
			return TK_EXIT_USAGE;
		}
	}
	tk_view_options vo = {.all_records = all, .log = quiet_log, .log_user = &quiet};
	tk_error err;
	tk_error_clear(&err);
	if (tk_view_write(inputs, n, out, &vo, &err) != TK_OK)
		return tk_cli_fail(&err, NULL);
	if (open_it)
		open_page(out);
	return 0;
}
