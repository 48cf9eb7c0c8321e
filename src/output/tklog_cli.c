/* Registry entry for tracekit logger files (tk_log_open_file(), see
 * include/tracekit/log.h): a file left by a running, exited or killed
 * process. The rings are checked and merged into elog bytes in memory
 * (src/log/log_recover.c), which the elog reader and renderers then serve:
 * print styles elog and cpeldump, text/json through the model, convert. */
#include <stdlib.h>
#include <string.h>

#include "base/input.h"
#include "output/render_ops.h"
#include "cpel/cpel_adapters.h"
#include "cpel/elog_reader.h"
#include "log/log_impl.h"
#include "output/elog_cli.h"

static tk_status tklog_print(const char *path, const tk_render_options *opt, tk_writer *out,
			     tk_error *err)
{
	if (strcmp(opt->style, "cpeldump") != 0 && strcmp(opt->style, "elog") != 0)
		return TK_ERR_UNSUPPORTED;
	tk_elog_file *f;
	tk_status st = tk_tklog_open_elog(path, &f, err);
	if (st != TK_OK)
		return st;
	st = tk_elog_print_file(f, path, opt, out, err);
	tk_elog_close(f);
	return st;
}

/* The rings as found (what a crash left), then the log as elog. */
static tk_status tklog_info(const char *path, const tk_render_options *opt, tk_writer *out,
			    tk_error *err)
{
	(void)opt;
	tk_input *in;
	tk_status st = tk_tklog_open_input(path, &in, err);
	if (st != TK_OK)
		return st;
	tk_lg_view *v = malloc(sizeof *v);
	const char *why = "out of memory";
	uint64_t at = TK_NO_OFFSET;
	if (!v || !tk_lg_view_open(v, tk_input_data(in), tk_input_size(in), &why, &at)) {
		free(v);
		tk_input_close(in);
		tk_error_set_file(err, path);
		return tk_error_set(err, v ? TK_ERR_FORMAT : TK_ERR_NOMEM, at, "%s", why);
	}
	tk_put_fmt(out, "tracekit log: %s mode, %s clock, %llu events per ring, %.0f ticks/s\n",
		   v->mode ? "stop-when-full" : "flight-recorder",
		   v->h->clock == LG_CLOCK_TSC ? "TSC" : "CLOCK_MONOTONIC",
		   (unsigned long long)(v->rings[0].mask + 1), v->tps);
	tk_put_fmt(out, "rings: %u (events with no ring: %llu)\n", v->n_rings,
		   (unsigned long long)v->dropped);
	for (unsigned i = 0; i < v->n_rings; i++) {
		const tk_lg_vring *r = &v->rings[i];
		tk_put_fmt(out, "  [%u] pid %u tid %u: events %llu..%llu, dropped %llu\n", i,
			   r->pid, r->tid, (unsigned long long)r->begin, (unsigned long long)r->end,
			   (unsigned long long)r->dropped);
	}
	free(v);
	tk_input_close(in);
	tk_elog_file *f;
	if ((st = tk_tklog_open_elog(path, &f, err)) != TK_OK)
		return st;
	tk_elog_info_file(f, path, out);
	tk_elog_close(f);
	return TK_OK;
}

/* Events per type and per track, and what the rings dropped. */
static tk_status tklog_stats(const char *path, const tk_render_options *opt, tk_writer *out,
			     tk_error *err)
{
	(void)opt;
	tk_elog_file *f;
	tk_status st = tk_tklog_open_elog(path, &f, err);
	if (st != TK_OK)
		return st;
	uint64_t *per_type = calloc(f->n_types + 1, sizeof *per_type);
	uint64_t *per_track = calloc(f->n_tracks + 1, sizeof *per_track);
	if (!per_type || !per_track) {
		st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		goto out;
	}
	for (uint32_t i = 0; i < f->n_events; i++) {
		per_type[f->events[i].type]++;
		per_track[f->events[i].track]++;
	}
	tk_put_fmt(out, "events: %u\nper event type:\n", f->n_events);
	for (uint32_t i = 0; i < f->n_types; i++)
		if (per_type[i])
			tk_put_fmt(out, "  %10llu  %s\n", (unsigned long long)per_type[i],
				   f->types[i].format.s);
	tk_put_str(out, "per track:\n");
	for (uint32_t i = 0; i < f->n_tracks; i++)
		if (per_track[i])
			tk_put_fmt(out, "  %10llu  %s\n", (unsigned long long)per_track[i],
				   f->tracks[i].s);
out:
	free(per_type);
	free(per_track);
	tk_elog_close(f);
	return st;
}

const tk_render_ops tk_tklog_render_ops = {
    .format = TK_FORMAT_TKLOG,
    .info = tklog_info,
    .stats = tklog_stats,
    .print = tklog_print,
};
