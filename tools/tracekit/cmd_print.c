/* tracekit print: a format's native styles, else the generic model printer. */
#include <string.h>

#include "cli.h"
#include "output/model_print.h"

int tk_cmd_print(int argc, char **argv)
{
	tk_cli cli;
	int rc = tk_cli_parse(&cli, "print", argc, argv);
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
		tk_status st =
		    r && r->print ? r->print(path, &cli.opt, out, &err) : TK_ERR_UNSUPPORTED;
		if (st == TK_ERR_UNSUPPORTED && ops->source_open &&
		    (strcmp(cli.opt.style, "text") == 0 || strcmp(cli.opt.style, "json") == 0)) {
			tk_error_clear(&err);
			st = tk_model_print(path, ops, &cli.opt, out, &err);
		}
		if (st == TK_ERR_UNSUPPORTED && !err.message[0])
			tk_error_set(&err, TK_ERR_USAGE, TK_NO_OFFSET,
				     "print style '%s' is not available for %s files",
				     cli.opt.style, ops->name);
		if (st != TK_OK)
			rc = tk_cli_fail(&err, path);
	}
	return tk_cli_finish(rc);
}
