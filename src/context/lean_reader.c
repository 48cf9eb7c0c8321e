/* Lean reading and counting of perf.data and CTF (lean_reader.h): one
 * implementation for `tracekit sql`'s count mode and Python's columns().
 * The records come from a native session (the one loop per format):
 * perf.data records as the session pulls them, CTF events from its reader
 * set to lean decoding before the first event. */
#include "context/lean_reader.h"

#include <stdlib.h>
#include <string.h>

#include "ctf/ctf_columns.h"
#include "session/session_ctf.h"

struct tk_lean {
	tk_session *ses;
	tk_perf_file *pf; /* the session's, perf.data only */
	ctf_reader *ctf;  /* the session's, CTF only */
	tk_event ev;
	tk_event_class *classes; /* perf: one per attr index */
	size_t n_classes;
	tk_log_fn log;
	void *log_user;
	/* CTF: an error of ctf_read, which reads past the session; later
	 * reads fail as the session's pull does after an error */
	bool ctf_failed;
};

static tk_status ctf_after_error(tk_error *err)
{
	return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET, "the session ended with an error");
}

static void lean_discard(void *user, const ctf_discard *d)
{
	tk_lean *l = user;
	if (!l->log)
		return;
	char msg[512];
	ctf_discard_text(d, msg, sizeof msg);
	l->log(l->log_user, 0, msg);
}

tk_status tk_lean_open(const char *path, tk_format format, const tk_lean_options *opt,
		       tk_lean **out, tk_error *err)
{
	*out = NULL;
	if (format != TK_FORMAT_PERF && format != TK_FORMAT_CTF)
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
				    "lean reading: perf.data or CTF only");
	tk_lean *l = calloc(1, sizeof *l);
	if (!l)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	l->log = opt ? opt->log : NULL;
	l->log_user = opt ? opt->log_user : NULL;
	tk_open_options oo = {.format = format,
			      .raw_order = opt && opt->raw_order,
			      .log = l->log,
			      .log_user = l->log_user};
	tk_status st = tk_session_open(path, &oo, TK_SESSION_NATIVE, &l->ses, err);
	if (st != TK_OK) {
		free(l);
		return st;
	}
	l->pf = tk_session_perf(l->ses);
	l->ctf = tk_session_ctf(l->ses);
	if (l->ctf) {
		l->ctf->lean = true;
		l->ctf->on_discard = lean_discard;
		l->ctf->discard_user = l;
	}
	*out = l;
	return TK_OK;
}

void tk_lean_close(tk_lean *l)
{
	if (!l)
		return;
	tk_session_close(l->ses);
	free(l->classes);
	free(l);
}

/* The attr a sample belongs to: the record's, else the only one (files
 * without sample ids), else none (no attrs yet). */
static const tk_perf_attr *sample_attr(tk_perf_file *pf, const tk_perf_record *r)
{
	if (r->attr)
		return r->attr;
	return tk_perf_attr_count(pf) ? tk_perf_attr_at(pf, 0) : NULL;
}

/* The class of an attr, named as the perf source names it. */
static const tk_event_class *perf_class(tk_lean *l, const tk_perf_attr *a)
{
	if (a->index >= l->n_classes) {
		size_t n = a->index + 16;
		tk_event_class *nc = realloc(l->classes, n * sizeof *nc);
		if (!nc)
			return NULL;
		memset(nc + l->n_classes, 0, (n - l->n_classes) * sizeof *nc);
		l->classes = nc;
		l->n_classes = n;
	}
	tk_event_class *c = &l->classes[a->index];
	if (!c->name) {
		c->name = a->name ? a->name : "unknown";
		c->id = a->index;
		c->loglevel = -1;
	}
	return c;
}

static tk_status perf_next(tk_lean *l, const tk_event **out, uint64_t *period, tk_error *err)
{
	for (;;) {
		const tk_session_item *it;
		tk_status st = tk_session_next(l->ses, &it, err);
		if (st != TK_OK)
			return st;
		const tk_perf_record *r = it->perf;
		const tk_perf_attr *a;
		if (r->type != TK_PERF_RECORD_SAMPLE || !(a = sample_attr(l->pf, r)))
			continue;
		tk_perf_sample smp;
		if ((st = tk_perf_parse_sample(l->pf, r, &smp, err)) != TK_OK)
			return st;
		tk_event *ev = &l->ev;
		if (!(ev->cls = perf_class(l, a)))
			return tk_error_set(err, TK_ERR_NOMEM, r->offset, "out of memory");
		ev->cpu = (r->sid.present & TK_PERF_SAMPLE_CPU) ? (int32_t)r->sid.cpu : TK_CPU_NONE;
		ev->pid = ev->tid = TK_PID_NONE;
		if (r->sid.present & TK_PERF_SAMPLE_TID) {
			ev->pid = (int32_t)r->sid.pid;
			ev->tid = (int32_t)r->sid.tid;
		}
		ev->has_time = r->has_time;
		ev->time_ns = ev->time_raw = r->sid.time;
		ev->offset = r->offset;
		*period = (smp.sample_type & TK_PERF_SAMPLE_PERIOD) ? smp.period : 0;
		*out = ev;
		return TK_OK;
	}
}

tk_status tk_lean_next(tk_lean *l, const tk_event **out, uint64_t *period, tk_error *err)
{
	*period = 0;
	if (l->pf)
		return perf_next(l, out, period, err);
	if (l->ctf_failed)
		return ctf_after_error(err);
	const tk_session_item *it;
	tk_status st = tk_session_next(l->ses, &it, err);
	if (st != TK_OK) {
		l->ctf_failed = st != TK_END;
		return st;
	}
	ctf_event_header(it->ctf, &l->ev);
	*out = &l->ev;
	return TK_OK;
}

/* The CTF loop: the reader's events go to the arrays directly
 * (ctf_reader_columns: the header fields as ctf_event_header() sets them,
 * runs of a stream's events through the lean fast path), no tk_event
 * between; CTF has no period, pid or tid here. */
static tk_status ctf_read(tk_lean *l, const tk_lean_columns *c, size_t max, size_t *n,
			  tk_error *err)
{
	*n = 0;
	if (l->ctf_failed)
		return ctf_after_error(err);
	ctf_columns cc = {.ts = c->ts, .offset = c->offset, .cpu = c->cpu, .cls = c->cls};
	tk_status st = ctf_reader_columns(l->ctf, &cc, max, n, err);
	l->ctf_failed = st != TK_OK && st != TK_END;
	for (size_t i = 0; c->period && i < *n; i++)
		c->period[i] = 0;
	for (size_t i = 0; c->pid && i < *n; i++)
		c->pid[i] = TK_PID_NONE;
	for (size_t i = 0; c->tid && i < *n; i++)
		c->tid[i] = TK_PID_NONE;
	return st;
}

tk_status tk_lean_read(tk_lean *l, const tk_lean_columns *c, size_t max, size_t *n, tk_error *err)
{
	if (l->ctf)
		return ctf_read(l, c, max, n, err);
	size_t i = 0;
	tk_status st = TK_OK;
	const tk_event *ev;
	uint64_t period;
	while (i < max && (st = perf_next(l, &ev, &period, err)) == TK_OK) {
		if (c->ts)
			c->ts[i] = ev->time_ns;
		if (c->offset)
			c->offset[i] = ev->offset;
		if (c->period)
			c->period[i] = period;
		if (c->cpu)
			c->cpu[i] = ev->cpu;
		if (c->pid)
			c->pid[i] = ev->pid;
		if (c->tid)
			c->tid[i] = ev->tid;
		if (c->cls)
			c->cls[i] = ev->cls;
		i++;
	}
	*n = i;
	return st;
}

static tk_status ctf_count(tk_lean *l, tk_lean_count_fn fn, void *user, tk_error *err)
{
	ctf_reader *r = l->ctf;
	ctf_span sp;
	tk_status st = tk_session_ctf_span(l->ses, &sp, err);
	if (st != TK_OK)
		return st;
	for (size_t i = 0; i < r->n_traces; i++) {
		const ctf_trace_class *tc = r->traces[i]->tc;
		for (size_t k = 0; k < tc->n_streams; k++) {
			const ctf_stream_class *sc = tc->streams[k];
			for (size_t j = 0; j < sc->n_events; j++) {
				const ctf_event_class *ec = sc->events[j];
				if (ec->n_seen &&
				    fn(user, ec->info.name ? ec->info.name : "", ec->n_seen))
					return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
							    "out of memory");
			}
		}
	}
	return TK_OK;
}

/* Samples counted per attr index, unparsed; names looked up at the end. */
static tk_status perf_count(tk_lean *l, tk_lean_count_fn fn, void *user, tk_error *err)
{
	uint64_t *per = NULL;
	size_t cap = 0;
	const tk_session_item *it;
	tk_status st;
	while ((st = tk_session_next(l->ses, &it, err)) == TK_OK) {
		const tk_perf_record *r = it->perf;
		const tk_perf_attr *a;
		if (r->type != TK_PERF_RECORD_SAMPLE || !(a = sample_attr(l->pf, r)))
			continue;
		if (a->index >= cap) {
			size_t ncap = a->index + 16;
			uint64_t *np = realloc(per, ncap * sizeof *np);
			if (!np) {
				st = tk_error_set(err, TK_ERR_NOMEM, r->offset, "out of memory");
				break;
			}
			memset(np + cap, 0, (ncap - cap) * sizeof *np);
			per = np;
			cap = ncap;
		}
		per[a->index]++;
	}
	if (st == TK_END)
		st = TK_OK;
	for (size_t i = 0; st == TK_OK && i < tk_perf_attr_count(l->pf); i++) {
		const tk_perf_attr *a = tk_perf_attr_at(l->pf, i);
		if (a->index < cap && per[a->index] &&
		    fn(user, a->name ? a->name : "unknown", per[a->index]))
			st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	free(per);
	return st;
}

tk_status tk_lean_count(tk_lean *l, tk_lean_count_fn fn, void *user, tk_error *err)
{
	return l->pf ? perf_count(l, fn, user, err) : ctf_count(l, fn, user, err);
}
