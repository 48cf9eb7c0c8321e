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
#include "session/session_cpel.h"

static tk_status tklog_print(const char *path, const tk_render_options *opt, tk_writer *out,
			     tk_error *err)
{
	if (strcmp(opt->style, "cpeldump") != 0 && strcmp(opt->style, "elog") != 0)
		return TK_ERR_UNSUPPORTED;
	tk_session *s;
	tk_status st = tk_elog_open_session(path, TK_FORMAT_TKLOG, &s, err);
	if (st != TK_OK)
		return st;
	st = tk_elog_print_session(s, path, opt, out, err);
	tk_session_close(s);
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
		   v->h->clock == LG_CLOCK_TSC      ? "TSC"
		   : v->h->clock == LG_CLOCK_COARSE ? "CLOCK_MONOTONIC_COARSE"
						    : "CLOCK_MONOTONIC",
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
	tk_session *s;
	if ((st = tk_elog_open_session(path, TK_FORMAT_TKLOG, &s, err)) != TK_OK)
		return st;
	tk_elog_info_file(tk_session_elog(s), path, out);
	tk_session_close(s);
	return TK_OK;
}

typedef struct per {
	uint64_t *type, *track;
} per;

static tk_status on_event(tk_session *s, const tk_session_item *item, void *user, tk_error *err)
{
	(void)s;
	(void)err;
	if ((int)item->kind != TK_SESSION_ELOG_EVENT)
		return TK_OK;
	per *p = user;
	const tk_elog_event *e = ((const tk_elog_record *)item->native)->event;
	p->type[e->type]++;
	p->track[e->track]++;
	return TK_OK;
}

/* Events per type and per track. */
static tk_status tklog_stats(const char *path, const tk_render_options *opt, tk_writer *out,
			     tk_error *err)
{
	(void)opt;
	tk_session *s;
	tk_status st = tk_elog_open_session(path, TK_FORMAT_TKLOG, &s, err);
	if (st != TK_OK)
		return st;
	const tk_elog_file *f = tk_session_elog(s);
	uint64_t *per_type = calloc(f->n_types + 1, sizeof *per_type);
	uint64_t *per_track = calloc(f->n_tracks + 1, sizeof *per_track);
	if (!per_type || !per_track) {
		st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		goto out;
	}
	per p = {per_type, per_track};
	tk_session_tool tool = {.record = on_event};
	if ((st = tk_session_run(s, &tool, &p, err)) != TK_OK)
		goto out;
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
	tk_session_close(s);
	return st;
}

const tk_render_ops tk_tklog_render_ops = {
    .format = TK_FORMAT_TKLOG,
    .info = tklog_info,
    .stats = tklog_stats,
    .print = tklog_print,
};
