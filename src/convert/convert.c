/* tk_convert: checks, native routes, then the model pipeline; see
 * convert.h. Errors are left naming the file the CLI reports them
 * against (the input for reading errors, OUT for writing ones). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/perf_to_dcpi.h"
#include "convert/convert.h"
#include "convert/formats.h"
#include "convert/pipeline.h"
#include "output/folded_perf.h"
#include "output/folded_stacks.h"
#include "output/pprof_perf.h"

static tk_status fail_on(tk_error *err, tk_status st, const char *file)
{
	if (err && file && !err->file[0])
		tk_error_set_file(err, file);
	return st;
}

/* The conversion being routed. */
typedef struct tk_convert_request {
	const char *const *inputs;
	size_t n_inputs;
	const char *output;
	tk_format in; /* the first input's format */
	const tk_convert_options *o;
} tk_convert_request;

/* A request refused before anything is read or written (a usage error). */
__attribute__((format(printf, 3, 4))) static tk_status refuse(tk_convert_result *res, tk_error *err,
							      const char *fmt, ...)
{
	res->refused = true;
	va_list ap;
	va_start(ap, fmt);
	char msg[sizeof err->message];
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET, "%s", msg);
}

static bool has_filters(const tk_render_options *o)
{
	return o->has_begin || o->has_end || o->events || !tk_id_set_any(&o->pid) ||
	       !tk_id_set_any(&o->tid) || !tk_id_set_any(&o->cpu) || o->limit;
}

/* OUT must not be one of the inputs, under any name (symlink, hard link):
 * the output would be destroyed or the input replaced while read. A CTF
 * directory output (removed with --force) must not hold an input. */
static tk_status refuse_input_as_output(const tk_convert_request *r, tk_error *err)
{
	struct stat out_sb;
	if (strcmp(r->output, "-") == 0 || stat(r->output, &out_sb) != 0)
		return TK_OK;
	char *out_real = S_ISDIR(out_sb.st_mode) ? realpath(r->output, NULL) : NULL;
	size_t out_len = out_real ? strlen(out_real) : 0;
	tk_status st = TK_OK;
	for (size_t i = 0; i < r->n_inputs && st == TK_OK; i++) {
		struct stat in_sb;
		if (strcmp(r->inputs[i], "-") == 0 || stat(r->inputs[i], &in_sb) != 0)
			continue;
		if (in_sb.st_dev == out_sb.st_dev && in_sb.st_ino == out_sb.st_ino) {
			st = tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
					  "output '%s' is the input '%s'", r->output, r->inputs[i]);
			break;
		}
		char *in_real = out_real ? realpath(r->inputs[i], NULL) : NULL;
		if (in_real && strncmp(in_real, out_real, out_len) == 0 && in_real[out_len] == '/')
			st = tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
					  "output '%s' holds the input '%s'", r->output,
					  r->inputs[i]);
		free(in_real);
	}
	free(out_real);
	return st;
}

/* ---- native routes: one input, a path that keeps what the model would
 * lose or that the model cannot make ---- */

typedef tk_status (*route_fn)(const tk_convert_request *r, tk_error *err);

/* perf -> perf with filters stays native: the kept samples plus every
 * non-sample record needed to interpret them (not tracepoint-style events,
 * which is what the model pipeline would make of them). */
static tk_status perf_filtered_copy(const tk_convert_request *r, tk_error *err)
{
	tk_filter f = tk_render_filter(&r->o->opt);
	return tk_perf_copy_filtered(r->inputs[0], r->output, &r->o->sink, &f, err);
}

static tk_status perf_to_dcpi(const tk_convert_request *r, tk_error *err)
{
	const tk_render_options *opt = &r->o->opt;
	tk_perf_dcpi_options d = {
	    .events = opt->events, .log = opt->log, .log_user = opt->log_user};
	return tk_perf_to_dcpi(r->inputs[0], r->output, &d, err);
}

static tk_status perf_to_folded(const tk_convert_request *r, tk_error *err)
{
	return tk_perf_folded_write(r->inputs[0], r->output, &r->o->opt, err);
}

static tk_status perf_to_pprof(const tk_convert_request *r, tk_error *err)
{
	return tk_perf_pprof_write(r->inputs[0], r->output, &r->o->opt, err);
}

static tk_status perf_to_speedscope(const tk_convert_request *r, tk_error *err)
{
	return tk_folded_export_write(r->inputs[0], r->output, &r->o->opt, tk_speedscope_put, err);
}

static tk_status perf_to_svg(const tk_convert_request *r, tk_error *err)
{
	return tk_folded_export_write(r->inputs[0], r->output, &r->o->opt, tk_flamegraph_svg_put,
				      err);
}

/* VPP's c2cpel, byte for byte (but the date). */
static tk_status elog_to_cpel(const tk_convert_request *r, tk_error *err)
{
	return tk_cpel_convert_elog(r->inputs[0], r->output, &r->o->sink, err);
}

enum { ROUTE_NO_LIMIT = 1, ROUTE_NO_FILTERS = 2 };

/* Tried in order, for one input; the first match runs. */
static const struct route {
	tk_format in, to;
	unsigned when;
	route_fn run;
} routes[] = {
    {TK_FORMAT_PERF, TK_FORMAT_PERF, ROUTE_NO_LIMIT, perf_filtered_copy},
    {TK_FORMAT_PERF, TK_FORMAT_DCPI, 0, perf_to_dcpi},
    {TK_FORMAT_PERF, TK_FORMAT_FOLDED, 0, perf_to_folded},
    {TK_FORMAT_PERF, TK_FORMAT_PPROF, 0, perf_to_pprof},
    {TK_FORMAT_PERF, TK_FORMAT_SPEEDSCOPE, 0, perf_to_speedscope},
    {TK_FORMAT_PERF, TK_FORMAT_SVG, 0, perf_to_svg},
    {TK_FORMAT_ELOG, TK_FORMAT_CPEL, ROUTE_NO_FILTERS, elog_to_cpel},
};

static const struct route *route_for(const tk_convert_request *r)
{
	if (r->n_inputs != 1)
		return NULL;
	const tk_render_options *opt = &r->o->opt;
	for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) {
		const struct route *rt = &routes[i];
		if (rt->in != r->in || rt->to != r->o->to)
			continue;
		if ((rt->when & ROUTE_NO_LIMIT) && opt->limit)
			continue;
		if ((rt->when & ROUTE_NO_FILTERS) && has_filters(opt))
			continue;
		return rt;
	}
	return NULL;
}

/* ---- the model pipeline ---- */

static uint64_t input_bytes(const tk_convert_request *r)
{
	uint64_t total = 0;
	for (size_t i = 0; i < r->n_inputs; i++) {
		struct stat sb;
		if (stat(r->inputs[i], &sb) == 0 && S_ISREG(sb.st_mode))
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

static tk_status run_pipeline(const tk_convert_request *r, tk_convert_result *res, tk_error *err)
{
	const tk_convert_options *o = r->o;
	tk_status st;
	tk_sink *sink = NULL;
	tk_session **ses = calloc(r->n_inputs, sizeof *ses);
	if (!ses)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	tk_open_options oo = {
	    .format = o->input_format,
	    .all_records = o->opt.all_records,
	    .raw_order = o->opt.raw_order,
	    .wall_clock = o->opt.wall_clock,
	    .log = o->opt.log,
	    .log_user = o->opt.log_user,
	};
	/* one model context per input, for the outputs that show what it
	 * derives; freed after the sink, which reads it until its close */
	unsigned want = context_flags_for(o->to);
	tk_context **ctxs = calloc(r->n_inputs, sizeof *ctxs);
	if (!ctxs) {
		free(ses);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	tk_filter window = tk_render_filter(&o->opt); /* spans outside --begin/--end: none */
	tk_context_options co = {.flags = want,
				 .log = o->opt.log,
				 .log_user = o->opt.log_user,
				 .has_begin = window.has_begin,
				 .has_end = window.has_end,
				 .begin_ns = window.begin_ns,
				 .end_ns = window.end_ns};
	for (size_t i = 0; i < r->n_inputs; i++) {
		if ((st = tk_session_open(r->inputs[i], &oo, TK_SESSION_MODEL, &ses[i], err)) !=
		    TK_OK) {
			fail_on(err, st, r->inputs[i]);
			goto out;
		}
		if (want && (st = tk_context_new(&co, &ctxs[i], err)) != TK_OK) {
			fail_on(err, st, r->inputs[i]);
			goto out;
		}
		tk_source_set_context(tk_session_source(ses[i]), ctxs[i]);
	}
	st = tk_sink_open(r->output, o->to, tk_source_info(tk_session_source(ses[0])), &o->sink,
			  &sink, err);
	if (st != TK_OK) {
		fail_on(err, st, r->output);
		goto out;
	}
	/* A sink names its output on the error as context; an error in the
	 * inputs from here on must not be reported against the output. */
	tk_error_clear(err);
	tk_pipeline_options po = {
	    .filter = tk_render_filter(&o->opt),
	    .limit = o->opt.limit,
	    .progress = o->progress,
	    .total_bytes = input_bytes(r),
	};
	res->model = true;
	if ((st = tk_pipeline_run(ses, r->n_inputs, sink, &po, &res->events, err)) != TK_OK) {
		tk_sink_abort(sink);
		sink = NULL;
		fail_on(err, st, r->inputs[0]);
		goto out;
	}
	tk_error_clear(err);
	st = tk_sink_close(sink, err);
	sink = NULL;
	if (st != TK_OK)
		fail_on(err, st, r->output);
out:
	tk_sink_abort(sink);
	for (size_t i = 0; i < r->n_inputs; i++) {
		tk_session_close(ses[i]);
		tk_context_free(ctxs[i]);
	}
	free(ctxs);
	free(ses);
	return st;
}

tk_status tk_convert(const char *const *inputs, size_t n_inputs, const char *output,
		     const tk_convert_options *o, tk_convert_result *res, tk_error *err)
{
	tk_convert_result ignored;
	if (!res)
		res = &ignored;
	*res = (tk_convert_result){0};
	tk_error_clear(err);
	if (n_inputs == 0)
		return refuse(res, err, "no input");
	tk_convert_request r = {inputs, n_inputs, output, o->input_format, o};
	/* the first input's format decides the native routes */
	tk_error_set_file(err, inputs[0]);
	if (!r.in && (r.in = tk_detect_path(inputs[0], err)) == TK_FORMAT_UNKNOWN)
		return err->status ? err->status : TK_ERR_UNSUPPORTED;
	const tk_format_ops *in_ops = tk_format_ops_for(r.in);
	if (!in_ops)
		return tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
				    "format %s cannot be read", tk_format_name(r.in));
	tk_error_clear(err);
	const tk_output_entry *out = tk_output_entry_for(o->to);
	tk_output_request orq = {inputs, n_inputs, r.in, o->opt.limit != 0};
	const char *why = strcmp(output, "-") == 0 && out && out->stdout_refusal
			      ? out->stdout_refusal(&orq)
			      : NULL;
	if (why)
		return refuse(res, err, "--to %s cannot be written to standard output: %s",
			      tk_format_name(o->to), why);
	tk_status st = refuse_input_as_output(&r, err);
	if (st != TK_OK) {
		res->refused = true;
		return st;
	}
	/* a lossless copy when nothing is filtered */
	if (n_inputs == 1 && r.in == o->to && in_ops->copy && !has_filters(&o->opt))
		return fail_on(err, in_ops->copy(inputs[0], output, &o->sink, err), inputs[0]);
	if (out && out->no_limit && o->opt.limit)
		return refuse(res, err, "--to %s takes no --limit", tk_format_name(o->to));
	const struct route *rt = route_for(&r);
	if (rt)
		return fail_on(err, rt->run(&r, err), inputs[0]);
	/* Profiles and folded stacks need sample IPs, call chains and the
	 * mappings that resolve them: only a single perf.data has those. */
	if (o->to == TK_FORMAT_DCPI && r.in == TK_FORMAT_DCPI)
		return fail_on(err,
			       tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
					    "a DCPI profile is copied whole: filters and several "
					    "inputs do not apply"),
			       inputs[0]);
	if (out && out->needs_perf)
		return fail_on(err,
			       tk_error_set(err, TK_ERR_UNSUPPORTED, TK_NO_OFFSET,
					    "--to %s needs one perf.data input (samples with their "
					    "mappings); this input is %s",
					    tk_format_name(o->to), tk_format_name(r.in)),
			       inputs[0]);
	return run_pipeline(&r, res, err);
}
