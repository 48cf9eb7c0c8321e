/* tracekit convert: a native copy when input and output formats match and
 * nothing is filtered; else sources -> muxer -> filters -> sink through the
 * model. The output appears complete or not at all: sinks write beside OUT
 * and rename at the end; an error or a signal removes what was written. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "convert/pipeline.h"
#include "analysis/perf_to_dcpi.h"
#include "output/folded_perf.h"
#include "output/pprof_perf.h"
#include "output/folded_stacks.h"

/* Whether OUT = "-" can be written for this conversion: stdout is a
 * stream, so formats that are directories or that seek back are out. NULL
 * when it can, else why not. */
static const char *stdout_refusal(const tk_cli *cli, tk_format to, tk_format in)
{
	struct stat sb;
	switch (to) {
	case TK_FORMAT_CTF: return "a CTF trace is a directory";
	case TK_FORMAT_PERF:
		/* perf -> perf copies have pipe mode; the model sink has not */
		if (in == TK_FORMAT_PERF && cli->n_inputs == 1 && !cli->opt.limit)
			return NULL;
		return "perf.data from other formats, several inputs or with --limit is written "
		       "in file mode, which seeks back to its header";
	case TK_FORMAT_DCPI:
		if (in == TK_FORMAT_DCPI && cli->n_inputs == 1 &&
		    !(stat(cli->inputs[0], &sb) == 0 && S_ISDIR(sb.st_mode)))
			return NULL;
		return "a DCPI database is a directory";
	default: return NULL;
	}
}

/* OUT must not be one of the inputs, under any name (symlink, hard link):
 * the output would be destroyed or the input replaced while read. With
 * --force a CTF directory output is removed: it must not hold an input. */
static int refuse_input_as_output(const tk_cli *cli)
{
	struct stat out_sb;
	if (strcmp(cli->output, "-") == 0 || stat(cli->output, &out_sb) != 0)
		return 0;
	char *out_real = S_ISDIR(out_sb.st_mode) ? realpath(cli->output, NULL) : NULL;
	size_t out_len = out_real ? strlen(out_real) : 0;
	int rc = 0;
	for (int i = 0; i < cli->n_inputs && !rc; i++) {
		struct stat in_sb;
		if (strcmp(cli->inputs[i], "-") == 0 || stat(cli->inputs[i], &in_sb) != 0)
			continue;
		if (in_sb.st_dev == out_sb.st_dev && in_sb.st_ino == out_sb.st_ino) {
			fprintf(stderr, "tracekit convert: output '%s' is the input '%s'\n",
				cli->output, cli->inputs[i]);
			rc = TK_EXIT_USAGE;
			break;
		}
		char *in_real = out_real ? realpath(cli->inputs[i], NULL) : NULL;
		if (in_real && strncmp(in_real, out_real, out_len) == 0 &&
		    in_real[out_len] == '/') {
			fprintf(stderr, "tracekit convert: output '%s' holds the input '%s'\n",
				cli->output, cli->inputs[i]);
			rc = TK_EXIT_USAGE;
		}
		free(in_real);
	}
	free(out_real);
	return rc;
}

/* The output format from --to, else from OUT's name (DESIGN.md). */
static tk_format output_format(const tk_cli *cli)
{
	if (cli->to)
		return tk_format_from_name(cli->to);
	const char *out = cli->output;
	struct stat sb;
	if (stat(out, &sb) == 0 && S_ISDIR(sb.st_mode))
		return TK_FORMAT_CTF;
	/* profile exports named by a double extension */
	static const struct {
		const char *suffix;
		tk_format fmt;
	} by_suffix[] = {
	    {".pb.gz", TK_FORMAT_PPROF},
	    {".speedscope.json", TK_FORMAT_SPEEDSCOPE},
	    {".svg", TK_FORMAT_SVG},
	};
	size_t out_len = strlen(out);
	for (size_t i = 0; i < sizeof by_suffix / sizeof by_suffix[0]; i++) {
		size_t n = strlen(by_suffix[i].suffix);
		if (out_len > n && strcmp(out + out_len - n, by_suffix[i].suffix) == 0)
			return by_suffix[i].fmt;
	}
	const char *slash = strrchr(out, '/');
	const char *dot = strrchr(slash ? slash : out, '.');
	if (!dot)
		return TK_FORMAT_CTF;
	static const struct {
		const char *ext;
		tk_format fmt;
	} by_ext[] = {
	    {".data", TK_FORMAT_PERF},  {".cpel", TK_FORMAT_CPEL},     {".json", TK_FORMAT_CHROME},
	    {".jsonl", TK_FORMAT_JSON}, {".folded", TK_FORMAT_FOLDED}, {".prof", TK_FORMAT_DCPI},
	};
	for (size_t i = 0; i < sizeof by_ext / sizeof by_ext[0]; i++)
		if (strcmp(dot, by_ext[i].ext) == 0)
			return by_ext[i].fmt;
	return TK_FORMAT_UNKNOWN;
}

static bool has_filters(const tk_render_options *o)
{
	return o->has_begin || o->has_end || o->events || !tk_id_set_any(&o->pid) ||
	       !tk_id_set_any(&o->tid) || !tk_id_set_any(&o->cpu) || o->limit;
}

static uint64_t input_bytes(const tk_cli *cli)
{
	uint64_t total = 0;
	for (int i = 0; i < cli->n_inputs; i++) {
		struct stat sb;
		if (stat(cli->inputs[i], &sb) == 0 && S_ISREG(sb.st_mode))
			total += (uint64_t)sb.st_size;
	}
	return total;
}

/* What the model context derives for an output format: JSON lines show
 * names and symbolized stacks; Chrome JSON also spans and counters. */
static unsigned context_flags_for(tk_format to)
{
	switch (to) {
	case TK_FORMAT_JSON: return TK_CTX_THREADS | TK_CTX_SYMBOLS;
	case TK_FORMAT_CHROME: return TK_CTX_ALL;
	default: return 0;
	}
}

static int run_pipeline(tk_cli *cli, tk_format to)
{
	tk_error err;
	tk_error_clear(&err);
	int rc = 0;
	tk_sink *sink = NULL;
	tk_source **srcs = calloc((size_t)cli->n_inputs, sizeof *srcs);
	if (!srcs) {
		tk_error_set(&err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		return tk_cli_fail(&err, NULL);
	}
	tk_open_options oo = {
	    .format = cli->input_format,
	    .all_records = cli->opt.all_records,
	    .raw_order = cli->opt.raw_order,
	    .wall_clock = cli->opt.wall_clock,
	    .log = tk_cli_log,
	    .log_user = &cli->opt,
	};
	/* one model context per input, for the outputs that show what it
	 * derives (closed after the sink, which reads it until its close) */
	tk_context **ctxs = calloc((size_t)cli->n_inputs, sizeof *ctxs);
	unsigned want = context_flags_for(to);
	if (!ctxs) {
		tk_error_set(&err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		rc = tk_cli_fail(&err, NULL);
		goto out;
	}
	for (int i = 0; i < cli->n_inputs; i++) {
		if (tk_source_open(cli->inputs[i], &oo, &srcs[i], &err) != TK_OK) {
			rc = tk_cli_fail(&err, cli->inputs[i]);
			goto out;
		}
		tk_context_options co = {.flags = want, .log = tk_cli_log, .log_user = &cli->opt};
		if (want && tk_context_new(&co, &ctxs[i], &err) != TK_OK) {
			rc = tk_cli_fail(&err, cli->inputs[i]);
			goto out;
		}
		tk_source_set_context(srcs[i], ctxs[i]);
	}
	if (tk_sink_open(cli->output, to, tk_source_info(srcs[0]), &cli->sink, &sink, &err) !=
	    TK_OK) {
		rc = tk_cli_fail(&err, cli->output);
		goto out;
	}
	/* A sink names its output on the error as context; an error in the
	 * inputs from here on must not be reported against the output. */
	tk_error_clear(&err);
	tk_pipeline_options po = {
	    .filter = tk_render_filter(&cli->opt),
	    .limit = cli->opt.limit,
	    .progress =
		cli->progress < 0 ? isatty(STDERR_FILENO) && !cli->opt.quiet : cli->progress,
	    .total_bytes = input_bytes(cli),
	};
	uint64_t n = 0;
	if (tk_pipeline_run(srcs, (size_t)cli->n_inputs, sink, &po, &n, &err) != TK_OK) {
		tk_sink_abort(sink);
		sink = NULL;
		rc = tk_cli_fail(&err, err.file[0] ? NULL : cli->inputs[0]);
		goto out;
	}
	tk_error_clear(&err);
	tk_status st = tk_sink_close(sink, &err);
	sink = NULL;
	if (st != TK_OK)
		rc = tk_cli_fail(&err, cli->output);
	else if (cli->opt.verbose)
		fprintf(stderr, "tracekit: wrote %llu events to %s\n", (unsigned long long)n,
			cli->output);
out:
	tk_sink_abort(sink);
	for (int i = 0; i < cli->n_inputs; i++) {
		tk_source_close(srcs[i]);
		if (ctxs)
			tk_context_free(ctxs[i]);
	}
	free(ctxs);
	free(srcs);
	return rc;
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
	if (tk_cli_sqlite_output(&cli))
		return tk_cmd_convert_sqlite(&cli);
	if (strcmp(cli.output, "-") == 0 && !cli.to) {
		fprintf(stderr, "tracekit convert: -o - is standard output: give its format "
				"with --to\n");
		return TK_EXIT_USAGE;
	}
	tk_format to = output_format(&cli);
	if (to == TK_FORMAT_UNKNOWN) {
		fprintf(stderr,
			"tracekit convert: cannot tell the output format of '%s'; use --to\n",
			cli.output);
		return TK_EXIT_USAGE;
	}
	tk_error err;
	const tk_format_ops *in_ops;
	if (tk_cli_format_of(&cli, cli.inputs[0], &in_ops, &err) != TK_OK)
		return tk_cli_fail(&err, cli.inputs[0]);
	const char *why =
	    strcmp(cli.output, "-") == 0 ? stdout_refusal(&cli, to, in_ops->format) : NULL;
	if (why) {
		fprintf(stderr,
			"tracekit convert: --to %s cannot be written to standard output: %s\n",
			tk_format_name(to), why);
		return TK_EXIT_USAGE;
	}
	if ((rc = refuse_input_as_output(&cli)) != 0)
		return rc;
	if (cli.n_inputs == 1 && in_ops->format == to && in_ops->copy && !has_filters(&cli.opt)) {
		if (in_ops->copy(cli.inputs[0], cli.output, &cli.sink, &err) != TK_OK)
			return tk_cli_fail(&err, cli.inputs[0]);
		return 0;
	}
	/* perf -> perf with filters stays native: the kept samples plus every
	 * non-sample record needed to interpret them (not tracepoint-style
	 * events, which is what the model pipeline would make of them). */
	if (cli.n_inputs == 1 && in_ops->format == TK_FORMAT_PERF && to == TK_FORMAT_PERF &&
	    !cli.opt.limit) {
		tk_filter f = tk_render_filter(&cli.opt);
		if (tk_perf_copy_filtered(cli.inputs[0], cli.output, &cli.sink, &f, &err) != TK_OK)
			return tk_cli_fail(&err, cli.inputs[0]);
		return 0;
	}
	if (cli.n_inputs == 1 && in_ops->format == TK_FORMAT_PERF && to == TK_FORMAT_DCPI) {
		tk_perf_dcpi_options dopt = {
		    .events = cli.opt.events, .log = cli.opt.log, .log_user = cli.opt.log_user};
		return tk_perf_to_dcpi(cli.inputs[0], cli.output, &dopt, &err) == TK_OK
			   ? 0
			   : tk_cli_fail(&err, cli.inputs[0]);
	}
	if (cli.n_inputs == 1 && in_ops->format == TK_FORMAT_PERF && to == TK_FORMAT_FOLDED)
		return tk_perf_folded_write(cli.inputs[0], cli.output, &cli.opt, &err) == TK_OK
			   ? 0
			   : tk_cli_fail(&err, cli.inputs[0]);
	if ((to == TK_FORMAT_PPROF || to == TK_FORMAT_SPEEDSCOPE || to == TK_FORMAT_SVG) &&
	    cli.opt.limit) {
		/* a profile of the first N records would mislead: refused, not ignored */
		fprintf(stderr, "tracekit convert: --to %s takes no --limit\n", tk_format_name(to));
		return TK_EXIT_USAGE;
	}
	if (cli.n_inputs == 1 && in_ops->format == TK_FORMAT_PERF && to == TK_FORMAT_PPROF)
		return tk_perf_pprof_write(cli.inputs[0], cli.output, &cli.opt, &err) == TK_OK
			   ? 0
			   : tk_cli_fail(&err, cli.inputs[0]);
	if (cli.n_inputs == 1 && in_ops->format == TK_FORMAT_PERF &&
	    (to == TK_FORMAT_SPEEDSCOPE || to == TK_FORMAT_SVG))
		return tk_folded_export_write(cli.inputs[0], cli.output, &cli.opt,
					      to == TK_FORMAT_SVG ? tk_flamegraph_svg_put
								  : tk_speedscope_put,
					      &err) == TK_OK
			   ? 0
			   : tk_cli_fail(&err, cli.inputs[0]);
	/* Profiles and folded stacks need sample IPs, call chains and the
	 * mappings that resolve them: only a single perf.data has those. */
	if (to == TK_FORMAT_DCPI && in_ops->format == TK_FORMAT_DCPI) {
		tk_error_set(&err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
			     "a DCPI profile is copied whole: filters and several inputs do not "
			     "apply");
		return tk_cli_fail(&err, cli.inputs[0]);
	}
	if (to == TK_FORMAT_DCPI || to == TK_FORMAT_FOLDED || to == TK_FORMAT_PPROF ||
	    to == TK_FORMAT_SPEEDSCOPE || to == TK_FORMAT_SVG) {
		tk_error_set(&err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
			     "--to %s needs one perf.data input (samples with their mappings); "
			     "this input is %s",
			     tk_format_name(to), tk_format_name(in_ops->format));
		return tk_cli_fail(&err, cli.inputs[0]);
	}
	if (cli.n_inputs == 1 && in_ops->format == TK_FORMAT_ELOG && to == TK_FORMAT_CPEL &&
	    !has_filters(&cli.opt))
		return tk_cpel_convert_elog(cli.inputs[0], cli.output, &cli.sink, &err) == TK_OK
			   ? 0
			   : tk_cli_fail(&err, cli.inputs[0]);
	return run_pipeline(&cli, to);
}
