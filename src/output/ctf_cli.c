/* Registry entry for CTF: detection of trace directories, the native print
 * styles ("babeltrace": babeltrace2's pretty text; "metadata": the TSDL
 * text), info and stats, all on a native CTF session (session_ctf.h).
 * "json" and "text" go through the generic model printer with the
 * tk_source adapter (ctf_source.c). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "output/render_ops.h"
#include "ctf/ctf_ids.h"
#include "ctf/ctf_reader.h"
#include "output/ctf_pretty.h"
#include "output/ctf_report.h"
#include "output/print_lanes.h"
#include "session/session_ctf.h"
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

/* Opens path as a native CTF session (the one road to CTF's reader). */
static tk_status open_native(const char *path, const tk_render_options *opt, tk_session **out,
			     tk_error *err)
{
	tk_open_options oo = {.format = TK_FORMAT_CTF, .log = opt->log, .log_user = opt->log_user};
	return tk_session_open(path, &oo, TK_SESSION_NATIVE, out, err);
}

typedef struct pretty_run {
	const tk_render_options *opt;
	ctf_pretty *p;
	tk_filter f;
	bool filtered;
	bool narrowed; /* a time window, a filter or a limit */
	ctf_ids ids;
	uint64_t n;
	tk_lane_cursor lane; /* two lanes: which chunks this one prints (print_lanes.h) */
	bool alone;          /* lane 0 of late lanes that lane 1 will not join */
	bool slow;           /* narrowed, or two lanes (not alone): on_event_slow */
	ctf_reader *reader;
	const tk_writer *out; /* the output, and its bytes before the run */
	uint64_t out_start;
} pretty_run;

typedef enum verdict { PRINT, SKIP, STOP } verdict;

/* A narrowed run's verdict on ev. */
static verdict narrow(pretty_run *pr, const ctf_event_out *ev)
{
	const tk_render_options *opt = pr->opt;
	if (!in_window(opt, ev)) {
		/* the merge is in time order: nothing later is inside */
		if (opt->has_end && ev->has_clock && ev->ns >= 0 && (uint64_t)ev->ns > opt->end_ns)
			return STOP;
		return SKIP;
	}
	if (pr->filtered && !matches(&pr->f, &pr->ids, ev))
		return SKIP;
	return PRINT;
}

/* Whether the next event read (ctf_reader.values_wanted) will be this
 * lane's to print: its ordinal is at least the lane's count so far (more
 * when another stream's events come first), so the guess is "no" only
 * when that ordinal and the next eighth of a chunk after it are all in
 * the other lane's chunks. A wrong "no" costs a second read of the
 * event (ctf_event_fill), a wrong "yes" its values read for nothing. */
static bool values_wanted(void *user)
{
	const tk_lane_cursor *c = user;
	uint64_t a = c->seen >> c->bits;
	uint64_t b = (c->seen + ((uint64_t)1 << c->bits >> 3)) >> c->bits;
	if (b < c->join) /* late lanes: lane 0 alone up to the join */
		return c->lane == 0;
	return a != b || (a & 1) == c->lane;
}

/* Late lanes: lane 0 prints the first PROBE_EVENTS alone and lets lane
 * 1 in only if their lines are long, LONG_LINE bytes or more on average.
 * Reading and merging the streams take the same time whatever the lines,
 * and both lanes do it: short lines leave too little formatting to
 * share. On the bench traces (bench/ctf_bench.sh): LTTng-UST, 400-byte
 * lines, two lanes 1.3x faster than one; dmesg, 70-byte lines, 10%
 * slower. */
#define PROBE_EVENTS ((uint64_t)1 << 16)
#define LONG_LINE    160

static void probe(pretty_run *pr)
{
	tk_lane_cursor *c = &pr->lane;
	if (c->lane != 0 || c->lent || c->no_join)
		return;
	bool probed = c->seen >= PROBE_EVENTS;
	const tk_writer *out = pr->out;
	bool long_lines = probed && out->written + out->pos - pr->out_start >= LONG_LINE * c->seen;
	/* (the tests' TRACEKIT_LANE_JOIN lets lane 1 in at its chunk, long
	 * lines or not) */
	if (tk_lanes_may_join(c, 0, !long_lines)) {
		tk_lanes_join(c, NULL); /* there is no table to lend */
		/* lane 0's events to come may be lane 1's to print */
		if (!pr->narrowed)
			pr->reader->values_wanted = values_wanted;
	} else if (probed) {
		/* lane 0 prints alone to the end, straight to the output: no
		 * more stepping through chunks */
		c->no_join = true;
		pr->alone = true;
		pr->slow = pr->narrowed;
	}
}

/* A write failed (the reader left: `| head`; a full disk): nothing more
 * can go out; the caller reports it as it commits the output. */
static inline tk_status written(const tk_writer *w)
{
	return tk_writer_failed(w) ? TK_END : TK_OK;
}

/* on_event for a window, filter or limit, or two lanes. */
static __attribute__((noinline)) tk_status on_event_slow(pretty_run *pr, const ctf_event_out *ev,
							 tk_error *err)
{
	if (pr->narrowed) {
		verdict v = narrow(pr, ev);
		if (v != PRINT)
			return v == STOP ? TK_END : TK_OK;
	}
	ctf_pretty *p = pr->p;
	if (pr->lane.lanes && !pr->alone) {
		tk_status lst = tk_lane_step(&pr->lane, true, &p->w, err);
		if (lst != TK_OK)
			return lst;
		if (p->w == pr->lane.sink) {
			ctf_pretty_skip(p, ev);
			return TK_OK;
		}
		/* read lean on a guess that the other lane prints it */
		if (ev->lean) {
			tk_status fst = ctf_event_fill(ev, err);
			if (fst != TK_OK)
				return fst;
		}
		if (pr->lane.join == UINT64_MAX)
			probe(pr);
	}
	ctf_pretty_event(p, ev);
	tk_status st = written(p->w);
	if (st == TK_OK && pr->opt->limit && ++pr->n >= pr->opt->limit)
		st = TK_END;
	return st;
}

static tk_status on_event(tk_session *s, const ctf_event_out *ev, void *user, tk_error *err)
{
	(void)s;
	pretty_run *pr = user;
	if (__builtin_expect(!pr->slow, 1)) { /* one lane, every event */
		ctf_pretty_event(pr->p, ev);
		return written(pr->p->w);
	}
	return on_event_slow(pr, ev, err);
}

typedef struct pretty_job {
	const char *path;
	const tk_render_options *opt;
	tk_writer *out;
} pretty_job;

/* One lane's run, or the whole run (r->lanes NULL): both lanes read and
 * merge every stream, each formats every other chunk of events. */
static void run_lane(tk_lane_run *r)
{
	const pretty_job *job = r->user;
	tk_render_options lane_opt;
	tk_log_fn event_log;
	void *event_user;
	tk_lane_logs(r, job->opt, &lane_opt, &event_log, &event_user);
	const tk_render_options *opt = &lane_opt;
	r->stop = UINT64_MAX;
	tk_session *s;
	/* late lanes (lane 0 alone until probe() has seen the lines), or
	 * two from the first chunk when the tests force two lanes; lane 1
	 * opens the trace only once it is let in (an open beside lane 0's
	 * reading costs lane 0 5% on a trace it prints alone) */
	bool late;
	const struct tk_symtab *lent;
	if (!tk_lane_begin(r, tk_lanes_forced(), &late, &lent)) {
		r->st = TK_OK;
		return;
	}
	tk_status st = open_native(job->path, opt, &s, &r->err);
	if (st != TK_OK) {
		if (r->lanes)
			tk_lanes_stop(r->lanes, 0);
		r->st = st;
		return;
	}
	ctf_reader *rd = tk_session_ctf(s);
	ctf_pretty p;
	ctf_pretty_init(&p, job->out, opt->clock_gmt);
	p.log = event_log; /* a line's warning comes from its chunk's lane */
	p.log_user = event_user;
	discard_ctx dc = {&p, opt};
	rd->on_discard = on_discard;
	rd->discard_user = &dc;
	rd->no_header_values = true; /* babeltrace2's text has no header fields */
	if (opt->has_begin && opt->begin_ns <= INT64_MAX) {
		rd->has_begin = true;
		rd->begin_ns = (int64_t)opt->begin_ns;
	}
	pretty_run pr = {.opt = opt, .p = &p, .f = tk_render_filter(opt), .out = job->out};
	if (r->lane == 0) /* (lane 1 never writes to out itself: not its to read) */
		pr.out_start = job->out->written + job->out->pos;
	pr.f.has_begin = pr.f.has_end = false;
	pr.filtered = !tk_filter_is_empty(&pr.f);
	pr.narrowed = pr.filtered || opt->has_begin || opt->has_end || opt->limit;
	pr.slow = pr.narrowed || r->lanes;
	ctf_ids_init(&pr.ids);
	if (!tk_lane_cursor_init(&pr.lane, r->lanes, r->lane)) {
		st = tk_error_set(&r->err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		tk_lanes_stop(r->lanes, 0);
	} else {
		/* each lane formats into its chunks' buffers (lane 0 of late
		 * lanes into the output until lane 1 joins) */
		if (r->lanes && (!late || r->lane == 1))
			p.w = pr.lane.sink;
		/* the other lane's events read without their values, when
		 * every event counts (a filtered event is not in the chunks'
		 * count); lane 0 of late lanes from the join on (probe) */
		pr.reader = rd;
		rd->values_user = &pr.lane;
		if (r->lanes && !pr.narrowed && (!late || r->lane == 1))
			rd->values_wanted = values_wanted;
		static const tk_session_tool tool = {.ctf_event = on_event};
		st = tk_session_run(s, &tool, &pr, &r->err);
	}
	if (r->lanes) {
		st = tk_lane_end(&pr.lane, st, &r->err);
		r->stop = pr.lane.chunk;
	}
	tk_lane_cursor_free(&pr.lane);
	ctf_ids_free(&pr.ids);
	ctf_pretty_fini(&p);
	tk_session_close(s);
	r->st = st;
}

static tk_status print_babeltrace(const char *path, const tk_render_options *opt, tk_writer *out,
				  tk_error *err)
{
	pretty_job job = {.path = path, .opt = opt, .out = out};
	tzset(); /* the local time zone as TZ says now (ctf_pretty.h) */
	return tk_lanes_print(path, opt, out, run_lane, &job, err);
}

static tk_status print_metadata(const char *path, const tk_render_options *opt, tk_writer *out,
				tk_error *err)
{
	tk_session *s;
	tk_status st = open_native(path, opt, &s, err);
	if (st != TK_OK)
		return st;
	const ctf_reader *r = tk_session_ctf(s);
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
	tk_session_close(s);
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
