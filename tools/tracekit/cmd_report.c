/* tracekit report: per-track time reports over any input with events
 * (--state EVENT, --latency START,END, --linreg START,END; see
 * src/analysis/report.h). The common filters (--begin/--end, --event,
 * --pid/--tid/--cpu, --limit) apply before the events reach the reports. */
#include <stdio.h>

#include "analysis/report.h"
#include "output/report_sort.h"
#include "cli.h"
#include "session/session_events.h"

typedef struct report_set {
	tk_report **reps;
	size_t n;
} report_set;

static tk_status add_event(void *user, const tk_event *ev, tk_error *err)
{
	report_set *r = user;
	tk_status st = TK_OK;
	for (size_t i = 0; i < r->n && st == TK_OK; i++)
		st = tk_report_add(r->reps[i], ev, err);
	return st;
}

static int run_one(const tk_cli *cli, const char *path, tk_report **reps, size_t n_reps,
		   tk_writer *out)
{
	tk_error err;
	tk_error_clear(&err);
	const tk_format_ops *ops;
	if (tk_cli_format_of(cli, path, &ops, &err) != TK_OK)
		return tk_cli_fail(&err, path);
	if (!ops->source_open) {
		tk_error_set(&err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
			     "%s files have no events to report on", ops->name);
		return tk_cli_fail(&err, path);
	}
	report_set set = {reps, n_reps};
	tk_status st =
	    tk_session_filtered_events(path, ops->format, &cli->opt, add_event, &set, &err);
	if (st != TK_OK && st != TK_END)
		return tk_cli_fail(&err, path);
	for (size_t i = 0; i < n_reps; i++) {
		if (i)
			tk_put_char(out, '\n');
		if (tk_report_write_sorted(reps[i], out, cli->sort, cli->top, &err) != TK_OK) {
			fprintf(stderr, "tracekit report: %s\n", err.message);
			return TK_EXIT_USAGE;
		}
	}
	return 0;
}

int tk_cmd_report(int argc, char **argv)
{
	bool cluster;
	int crc = tk_report_cluster(argc, argv, &cluster);
	if (cluster)
		return crc;
	tk_cli cli;
	int rc = tk_cli_parse(&cli, "report", argc, argv);
	if (rc)
		return rc;
	struct {
		tk_report_kind kind;
		const char *spec;
	} asked[] = {
	    {TK_REPORT_STATE, cli.report_state},
	    {TK_REPORT_LATENCY, cli.report_latency},
	    {TK_REPORT_LINREG, cli.report_linreg},
	};
	/* perf report's table: asked by its options or its sort keys */
	if (cli.children || cli.call_graph || cli.no_children || cli.per_thread ||
	    tk_rsort_is_perf_list(cli.sort))
		return tk_cmd_report_children(&cli);
	if (!cli.report_state && !cli.report_latency && !cli.report_linreg)
		return tk_cmd_report_profile(&cli);
	tk_writer *out = tk_cli_stdout();
	for (int k = 0; k < cli.n_inputs && rc == 0; k++) {
		tk_report *reps[3];
		size_t n_reps = 0;
		tk_error err;
		tk_error_clear(&err);
		for (size_t i = 0; i < 3 && rc == 0; i++) {
			if (!asked[i].spec)
				continue;
			if (tk_report_new(asked[i].kind, asked[i].spec, &reps[n_reps], &err) !=
			    TK_OK) {
				fprintf(stderr, "tracekit report: %s\n", err.message);
				rc = TK_EXIT_USAGE;
				break;
			}
			n_reps++;
		}
		if (rc == 0) {
			if (cli.n_inputs > 1)
				tk_put_fmt(out, "%s== %s\n", k ? "\n" : "", cli.inputs[k]);
			rc = run_one(&cli, cli.inputs[k], reps, n_reps, out);
		}
		for (size_t i = 0; i < n_reps; i++)
			tk_report_free(reps[i]);
	}
	return tk_cli_finish(rc);
}
