/* tracekit info / stats: per-format descriptions of each input. */
#include <stdio.h>

#include "cli.h"

typedef tk_status (*describe_fn)(const char *path, const tk_render_options *opt, tk_writer *out,
				 tk_error *err);

static int run_describe(const char *verb, int argc, char **argv, bool stats)
{
	tk_cli cli;
	int rc = tk_cli_parse(&cli, verb, argc, argv);
	if (rc)
		return rc;
	tk_writer *out = tk_cli_stdout();
	for (int i = 0; i < cli.n_inputs && rc == 0; i++) {
		const char *path = cli.inputs[i];
		tk_error err;
		const tk_format_ops *ops;
		if (tk_cli_format_of(&cli, path, &ops, &err) != TK_OK) {
			rc = tk_cli_fail(&err, path);
			break;
		}
		const tk_render_ops *r = tk_render_ops_for(ops->format);
		describe_fn fn = !r ? NULL : stats ? r->stats : r->info;
		if (!fn) {
			tk_error_set(&err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
				     "'%s' is not supported for %s files yet", verb, ops->name);
			rc = tk_cli_fail(&err, path);
			break;
		}
		if (cli.n_inputs > 1) {
			tk_put_str(out, i ? "\n==> " : "==> ");
			tk_put_str(out, path);
			tk_put_str(out, " <==\n");
		}
		if (fn(path, &cli.opt, out, &err) != TK_OK)
			rc = tk_cli_fail(&err, path);
	}
	return tk_cli_finish(rc);
}

int tk_cmd_info(int argc, char **argv)
{
	return run_describe("info", argc, argv, false);
}
int tk_cmd_stats(int argc, char **argv)
{
	return run_describe("stats", argc, argv, true);
}
