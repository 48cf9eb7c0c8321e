/* Registry entry for CTF: detection of trace directories, the native print
 * styles ("babeltrace": babeltrace2's pretty text; "metadata": the TSDL
 * text), info and stats. "json" and "text" go through the generic model
 * printer with the tk_source adapter (ctf_source.c). */
#include <stdio.h>
#include <string.h>

#include "output/render_ops.h"
#include "ctf/ctf_ids.h"
#include "ctf/ctf_reader.h"
#include "output/ctf_pretty.h"
#include "output/ctf_report.h"
#include "tracekit/ctf.h"

typedef struct discard_ctx {
	ctf_pretty *pretty;
	const tk_render_options *opt;
} discard_ctx;

static void on_discard(void *user, const ctf_discard *d)
{
	discard_ctx *c = user;
	tk_writer *w;
	if (tk_writer_open_memory(&w, NULL) != TK_OK)
		return;
	ctf_pretty_discard(c->pretty, w, d);
	tk_put_char(w, 0);
	size_t len;
	const char *msg = tk_writer_data(w, &len);
	if (c->opt->log && !c->opt->quiet)
		c->opt->log(c->opt->log_user, 0, msg);
	tk_writer_abort(w);
}

static bool in_window(const tk_render_options *opt, const ctf_event_out *ev)
{
	if (!ev->has_clock)
		return true;
	if (opt->has_begin && ev->ns < 0)
		return false;
	if (opt->has_begin && (uint64_t)ev->ns < opt->begin_ns)
		return false;
	if (opt->has_end && ev->ns >= 0 && (uint64_t)ev->ns > opt->end_ns)
		return false;
	return true;
}

/* --event, --pid, --tid and --cpu (the time window is in_window's: events
 * without a clock stay, as babeltrace2's trimmer keeps them). */
static bool matches(const tk_filter *f, ctf_ids *ids, const ctf_event_out *e)
{
	tk_event ev = {.cls = &e->ec->info, .pid = TK_PID_NONE, .tid = TK_PID_NONE};
	ev.cpu = e->cpu >= 0 && e->cpu <= INT32_MAX ? (int32_t)e->cpu : TK_CPU_NONE;
	if (!tk_id_set_any(&f->pid) || !tk_id_set_any(&f->tid))
		ctf_ids_fill(ids, e->common_context, e->context, &ev.pid, &ev.tid);
	return tk_filter_match(f, &ev);
}

static tk_status print_babeltrace(const char *path, const tk_render_options *opt, tk_writer *out,
				  tk_error *err)
{
	ctf_reader *r;
	tk_status st = ctf_reader_open(path, opt->log, opt->log_user, &r, err);
	if (st != TK_OK)
		return st;
	ctf_pretty p;
	ctf_pretty_init(&p, out, opt->clock_gmt);
	p.log = opt->log;
	p.log_user = opt->log_user;
	discard_ctx dc = {&p, opt};
	r->on_discard = on_discard;
	r->discard_user = &dc;
	if (opt->has_begin && opt->begin_ns <= INT64_MAX) {
		r->has_begin = true;
		r->begin_ns = (int64_t)opt->begin_ns;
	}
	tk_filter f = tk_render_filter(opt);
	f.has_begin = f.has_end = false;
	bool filtered = !tk_filter_is_empty(&f);
	ctf_ids ids;
	ctf_ids_init(&ids);
	uint64_t n = 0;
	const ctf_event_out *ev;
	while ((st = ctf_reader_next(r, &ev, err)) == TK_OK) {
		if (!in_window(opt, ev)) {
			if (opt->has_end && ev->has_clock && ev->ns >= 0 &&
			    (uint64_t)ev->ns > opt->end_ns)
				break;
			continue;
		}
		if (filtered && !matches(&f, &ids, ev))
			continue;
		ctf_pretty_event(&p, ev);
		if (opt->limit && ++n >= opt->limit)
			break;
	}
	if (st == TK_END)
		st = TK_OK;
	ctf_ids_free(&ids);
	ctf_pretty_fini(&p);
	ctf_reader_close(r);
	return st;
}

static tk_status print_metadata(const char *path, const tk_render_options *opt, tk_writer *out,
				tk_error *err)
{
	ctf_reader *r;
	tk_status st = ctf_reader_open(path, opt->log, opt->log_user, &r, err);
	if (st != TK_OK)
		return st;
	for (size_t i = 0; i < r->n_traces; i++) {
		const ctf_trace_class *tc = r->traces[i]->tc;
		if (r->n_traces > 1) {
			tk_put_str(out, "/* trace: ");
			tk_put_str(out, r->traces[i]->dir);
			tk_put_str(out, " */\n");
		}
		tk_put_mem(out, tc->text, tc->text_len);
		if (tc->text_len && tc->text[tc->text_len - 1] != '\n')
			tk_put_char(out, '\n');
	}
	ctf_reader_close(r);
	return TK_OK;
}

static tk_status ctf_print(const char *path, const tk_render_options *opt, tk_writer *out,
			   tk_error *err)
{
	if (!strcmp(opt->style, "babeltrace"))
		return print_babeltrace(path, opt, out, err);
	if (!strcmp(opt->style, "metadata"))
		return print_metadata(path, opt, out, err);
	return TK_ERR_UNSUPPORTED;
}

const tk_render_ops tk_ctf_render_ops = {
    .format = TK_FORMAT_CTF,
    .info = tk_ctf_info,
    .stats = tk_ctf_stats,
    .print = ctf_print,
};
