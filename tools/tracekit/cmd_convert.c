/* tracekit convert: the options into a tk_convert() request (src/convert:
 * native routes, else sources -> muxer -> filters -> sink through the
 * model). The output appears complete or not at all: sinks write beside
 * OUT and rename at the end; an error or a signal removes what was
 * written. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "convert/convert.h"

int tk_cmd_convert(int argc, char **argv)
{
	tk_cli cli;
	int rc = tk_cli_parse(&cli, "convert", argc, argv);
	if (rc)
		return rc;
	if (!cli.output) {
		fprintf(stderr, "tracekit convert: -o OUT is required\n");
		return TK_EXIT_USAGE;
	}
	if (tk_cli_sqlite_output(&cli))
		return tk_cmd_convert_sqlite(&cli);
	if (strcmp(cli.output, "-") == 0 && !cli.to) {
		fprintf(stderr, "tracekit convert: -o - is standard output: give its format "
				"with --to\n");
		return TK_EXIT_USAGE;
	}
	tk_format to = tk_convert_output_format(cli.to, cli.output);
	if (to == TK_FORMAT_UNKNOWN) {
		fprintf(stderr,
			"tracekit convert: cannot tell the output format of '%s'; use --to\n",
			cli.output);
		return TK_EXIT_USAGE;
	}
	tk_convert_options co = {
	    .input_format = cli.input_format,
	    .to = to,
	    .opt = cli.opt,
	    .sink = cli.sink,
	    .progress = cli.progress < 0 ? isatty(STDERR_FILENO) && !cli.opt.quiet : cli.progress,
	};
	tk_convert_result res;
	tk_error err;
	tk_status st = tk_convert(cli.inputs, (size_t)cli.n_inputs, cli.output, &co, &res, &err);
	if (st != TK_OK && res.refused) {
		fprintf(stderr, "tracekit convert: %s\n", err.message);
		return TK_EXIT_USAGE;
	}
	if (st != TK_OK)
		return tk_cli_fail(&err, NULL);
	if (res.model && cli.opt.verbose)
		fprintf(stderr, "tracekit: wrote %llu events to %s\n",
			(unsigned long long)res.events, cli.output);
	return 0;
}
