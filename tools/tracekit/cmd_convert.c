/* tracekit convert: native copy when input and output formats match and
 * nothing is filtered; else source -> filters -> sink through the model. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* The output format from --to, else from OUT's name (DESIGN.md). */
static tk_format output_format(const tk_cli *cli)
{
	if (cli->to)
		return tk_format_from_name(cli->to);
	const char *out = cli->output;
	struct stat sb;
	if (stat(out, &sb) == 0 && S_ISDIR(sb.st_mode))
		return TK_FORMAT_CTF;
	const char *slash = strrchr(out, '/');
	const char *dot = strrchr(slash ? slash : out, '.');
	if (!dot)
		return TK_FORMAT_CTF;
	static const struct {
		const char *ext;
		tk_format fmt;
	} by_ext[] = {
		{".data", TK_FORMAT_PERF},  {".cpel", TK_FORMAT_CPEL},  {".json", TK_FORMAT_CHROME},
		{".jsonl", TK_FORMAT_JSON}, {".folded", TK_FORMAT_FOLDED}, {".prof", TK_FORMAT_DCPI},
	};
	for (size_t i = 0; i < sizeof by_ext / sizeof by_ext[0]; i++)
		if (strcmp(dot, by_ext[i].ext) == 0)
			return by_ext[i].fmt;
	return TK_FORMAT_UNKNOWN;
}

static bool has_filters(const tk_cli_options *o)
{
	return o->has_begin || o->has_end || o->events || o->pid >= 0 || o->tid >= 0 || o->cpu >= 0 ||
	       o->limit;
}

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
	tk_format to = output_format(&cli);
	if (to == TK_FORMAT_UNKNOWN) {
		fprintf(stderr, "tracekit convert: cannot tell the output format of '%s'; use --to\n",
			cli.output);
		return TK_EXIT_USAGE;
	}
	tk_error err;
	const tk_format_ops *in_ops;
	if (tk_cli_format_of(&cli, cli.inputs[0], &in_ops, &err) != TK_OK)
		return tk_cli_fail(&err, cli.inputs[0]);
	if (cli.n_inputs == 1 && in_ops->format == to && in_ops->copy && !has_filters(&cli.opt)) {
		if (in_ops->copy(cli.inputs[0], cli.output, &cli.sink, &err) != TK_OK)
			return tk_cli_fail(&err, cli.inputs[0]);
		return 0;
	}
	tk_error_set(&err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET, "conversion from %s to %s is not supported yet",
		     in_ops->name, tk_format_name(to));
	return tk_cli_fail(&err, cli.inputs[0]);
}
