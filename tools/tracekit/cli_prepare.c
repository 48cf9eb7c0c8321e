/* What the options need from the inputs before a command runs: the trace's
 * span for percentages and times of day, and the event names for a check
 * of --event globs. Each input is opened once more for it (stdin cannot
 * be, so those forms need files). */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static bool needs_span(const tk_cli_time *t, bool has)
{
	return has && t->kind != TK_TIME_NS;
}

typedef struct span {
	uint64_t *first, *last;
} span;

static tk_status span_event(tk_session *s, const tk_event *ev, void *user, tk_error *err)
{
	(void)s;
	(void)err;
	span *sp = user;
	if (ev->has_time && ev->time_ns < *sp->first)
		*sp->first = ev->time_ns;
	if (ev->has_time && ev->time_ns > *sp->last)
		*sp->last = ev->time_ns;
	return TK_OK;
}

/* First and last event time of every input together (a model session per
 * input). */
static int trace_span(const tk_cli *cli, uint64_t *first, uint64_t *last)
{
	*first = UINT64_MAX;
	*last = 0;
	for (int i = 0; i < cli->n_inputs; i++) {
		const char *path = cli->inputs[i];
		tk_error err;
		if (strcmp(path, "-") == 0) {
			fprintf(stderr, "tracekit: percentages and times of day need the trace's "
					"span: stdin cannot be read twice\n");
			return TK_EXIT_USAGE;
		}
		const tk_format_ops *ops;
		if (tk_cli_format_of(cli, path, &ops, &err) != TK_OK)
			return tk_cli_fail(&err, path);
		tk_open_options oo = {
		    .format = ops->format, .raw_order = true, .wall_clock = cli->opt.wall_clock};
		tk_session *s;
		if (tk_session_open(path, &oo, TK_SESSION_MODEL, &s, &err) != TK_OK)
			return tk_cli_fail(&err, path);
		span sp = {first, last};
		static const tk_session_tool tool = {.event = span_event};
		tk_status st = tk_session_run(s, &tool, &sp, &err);
		tk_session_close(s);
		if (st != TK_OK)
			return tk_cli_fail(&err, path);
	}
	if (*first > *last) {
		fprintf(stderr, "tracekit: no timestamped event: percentages and times of day "
				"cannot be placed\n");
		return TK_EXIT_BAD_INPUT;
	}
	return 0;
}

/* perf's habit: a glob matching nothing is worth a warning that lists what
 * the file has, not a silent empty output. */
static void check_event_globs(const tk_cli *cli)
{
	if (!cli->opt.events || cli->opt.quiet)
		return;
	for (int i = 0; i < cli->n_inputs; i++) {
		const char *path = cli->inputs[i];
		tk_error err;
		const tk_format_ops *ops;
		if (strcmp(path, "-") == 0 || tk_cli_format_of(cli, path, &ops, &err) != TK_OK ||
		    !ops->source_open)
			continue;
		tk_open_options oo = {.format = ops->format, .raw_order = true};
		tk_source *src;
		if (ops->source_open(path, &oo, &src, &err) != TK_OK)
			continue; /* the command itself reports it */
		const tk_trace_info *info = tk_source_info(src);
		const char *p = cli->opt.events;
		while (*p) {
			const char *comma = strchr(p, ',');
			size_t n = comma ? (size_t)(comma - p) : strlen(p);
			char glob[256];
			if (n < sizeof glob && info->n_event_classes > 0) {
				memcpy(glob, p, n);
				glob[n] = '\0';
				bool hit = false;
				for (size_t k = 0; k < info->n_event_classes && !hit; k++) {
					const tk_event_class *c = info->event_classes[k];
					hit = c->name && tk_filter_name_matches(glob, c->name);
				}
				if (!hit) {
					fprintf(
					    stderr,
					    "tracekit: warning: %s: --event '%s' matches no event; "
					    "events present:",
					    path, glob);
					for (size_t k = 0; k < info->n_event_classes; k++) {
						const tk_event_class *c = info->event_classes[k];
						bool dup = false;
						for (size_t j = 0; j < k && !dup; j++)
							dup = info->event_classes[j]->name &&
							      c->name &&
							      !strcmp(info->event_classes[j]->name,
								      c->name);
						if (c->name && !dup)
							fprintf(stderr, " %s", c->name);
					}
					fputc('\n', stderr);
				}
			}
			if (!comma)
				break;
			p = comma + 1;
		}
		tk_source_close(src);
	}
}

int tk_cli_prepare(tk_cli *cli, const char *verb, const tk_cli_time *begin, bool has_begin,
		   const tk_cli_time *end, bool has_end)
{
	uint64_t first = 0, last = 0;
	if (needs_span(begin, has_begin) || needs_span(end, has_end)) {
		int rc = trace_span(cli, &first, &last);
		if (rc)
			return rc;
	}
	bool gmt = cli->opt.clock_gmt;
	if (has_begin) {
		cli->opt.has_begin = true;
		cli->opt.begin_ns = tk_cli_time_resolve(begin, first, last, gmt);
	}
	if (has_end) {
		cli->opt.has_end = true;
		cli->opt.end_ns = tk_cli_time_resolve(end, first, last, gmt);
	}
	if (has_begin && has_end && cli->opt.begin_ns > cli->opt.end_ns) {
		fprintf(stderr, "tracekit %s: the beginning of the time range is after its end\n",
			verb);
		return TK_EXIT_USAGE;
	}
	check_event_globs(cli);
	return 0;
}
