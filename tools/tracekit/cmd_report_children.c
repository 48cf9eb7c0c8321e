/* `tracekit report --children` / `-g caller|callee` on perf.data: perf
 * report's children table and call-graph trees (src/output/report_children.c). */
#include "cli.h"
#include "model/filter.h"
#include "output/report_children.h"
#include "output/report_sort.h"

int tk_cmd_report_children(const tk_cli *cli)
{
	tk_writer *out = tk_cli_stdout();
	int rc = 0;
	tk_filter filter = tk_cli_filter(&cli->opt);
	tk_profile_report_options base = {
	    .filter = &filter,
	    .sort = cli->sort,
	    .top = cli->top,
	    .events = cli->opt.events,
	    .log = cli->opt.log,
	    .log_user = cli->opt.log_user,
	};
	tk_report_children_options o = {
	    .base = &base,
	    .children = cli->children,
	    .graph = (tk_report_graph)cli->call_graph,
	    .percent_limit = cli->percent_limit,
	    .sort_keys = tk_rsort_is_perf_list(cli->sort) ? cli->sort : NULL,
	    .per_thread = cli->per_thread,
	};
	for (int k = 0; k < cli->n_inputs && rc == 0; k++) {
		tk_error err;
		tk_error_clear(&err);
		const tk_format_ops *ops;
		if (tk_cli_format_of(cli, cli->inputs[k], &ops, &err) != TK_OK)
			return tk_cli_finish(tk_cli_fail(&err, cli->inputs[k]));
		if (cli->n_inputs > 1)
			tk_put_fmt(out, "%s== %s\n", k ? "\n" : "", cli->inputs[k]);
		tk_status st =
		    ops->format == TK_FORMAT_PERF
			? tk_perf_report_children(cli->inputs[k], &o, out, &err)
			: tk_error_set(
			      &err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
			      "--children and --call-graph need perf.data input (%s given)",
			      ops->name);
		if (st != TK_OK)
			rc = tk_cli_fail(&err, cli->inputs[k]);
	}
	return tk_cli_finish(rc);
}
