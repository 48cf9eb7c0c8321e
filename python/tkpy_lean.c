/* The lean readers behind Source.columns() when every column asked for
 * comes from the event's header (ts, cpu, name; perf.data also pid, tid,
 * period, offset): the events the source would return, in the same order
 * and with the same errors, without building model values.
 *
 * - perf.data: records in perf's time order through tk_perf_next(); each
 *   sample is parsed (so a damaged one fails as on the model path) but no
 *   payload is built: the fields come from the parsed sample id, named by
 *   the attr as the perf source names its classes.
 * - CTF: the reader's lean plans (what `tracekit stats` runs): contexts
 *   and payload are decoded for their positions only, strings skipped.
 *   LTTng pid/tid live in those contexts, so CTF serves ts, cpu, name and
 *   offset only.
 * A source switches to its lean reader only before its first event; from
 * then on it is read by columns() alone (tkpy_lean_* own the reader). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf/ctf_reader.h"
#include "tkpy.h"

struct tkpy_lean {
	tk_format format;
	tk_perf_file *pf;
	ctf_reader *ctf;
	tk_event ev;
	tk_event_class *classes; /* perf: one per attr index */
	size_t n_classes;
	tk_log_fn log;
	void *log_user;
};

static void lean_discard(void *user, const ctf_discard *d)
{
	tkpy_lean *l = user;
	if (!l->log)
		return;
	/* the text of the CTF source's warning (src/ctf/ctf_source.c) */
	char msg[512];
	if (d->count == UINT64_MAX)
		snprintf(msg, sizeof msg, "tracer may have discarded %s in stream %s",
			 d->packets ? "packets" : "events", d->stream->name);
	else
		snprintf(msg, sizeof msg, "tracer discarded %llu %s in stream %s",
			 (unsigned long long)d->count, d->packets ? "packets" : "events",
			 d->stream->name);
	l->log(l->log_user, 0, msg);
}

bool tkpy_lean_serves(tk_format format, unsigned columns, const tk_filter *f)
{
	unsigned perf = TKPY_LEAN_TS | TKPY_LEAN_CPU | TKPY_LEAN_NAME | TKPY_LEAN_OFFSET |
			TKPY_LEAN_PID | TKPY_LEAN_TID | TKPY_LEAN_PERIOD;
	unsigned ctf = TKPY_LEAN_TS | TKPY_LEAN_CPU | TKPY_LEAN_NAME | TKPY_LEAN_OFFSET;
	if (format == TK_FORMAT_PERF)
		return (columns & ~perf) == 0;
	if (format == TK_FORMAT_CTF)
		return (columns & ~ctf) == 0 && tk_id_set_any(&f->pid) && tk_id_set_any(&f->tid);
	return false;
}

tk_status tkpy_lean_open(const char *path, tk_format format, tk_log_fn log, void *log_user,
			 tkpy_lean **out, tk_error *err)
{
	*out = NULL;
	tkpy_lean *l = calloc(1, sizeof *l);
	if (!l)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	l->format = format;
	l->log = log;
	l->log_user = log_user;
	tk_status st;
	if (format == TK_FORMAT_PERF) {
		tk_perf_open_options po = {.log = log, .log_user = log_user};
		st = tk_perf_open(path, &po, &l->pf, err);
	} else {
		st = ctf_reader_open(path, log, log_user, &l->ctf, err);
		if (st == TK_OK) {
			l->ctf->lean = true;
			l->ctf->on_discard = lean_discard;
			l->ctf->discard_user = l;
		}
	}
	if (st != TK_OK) {
		free(l);
		return st;
	}
	*out = l;
	return TK_OK;
}

void tkpy_lean_close(tkpy_lean *l)
{
	if (!l)
		return;
	tk_perf_close(l->pf);
	ctf_reader_close(l->ctf);
	free(l->classes);
	free(l);
}

/* The class of an attr, named as the perf source names it. */
static const tk_event_class *perf_class(tkpy_lean *l, const tk_perf_attr *a)
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

static tk_status perf_next(tkpy_lean *l, const tk_event **out, uint64_t *period, tk_error *err)
{
	for (;;) {
		const tk_perf_record *r;
		tk_status st = tk_perf_next(l->pf, &r, err);
		if (st != TK_OK)
			return st;
		if (r->type != TK_PERF_RECORD_SAMPLE || tk_perf_attr_count(l->pf) == 0)
			continue;
		tk_perf_sample smp;
		if ((st = tk_perf_parse_sample(l->pf, r, &smp, err)) != TK_OK)
			return st;
		const tk_perf_attr *a = r->attr ? r->attr : tk_perf_attr_at(l->pf, 0);
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

static tk_status ctf_next(tkpy_lean *l, const tk_event **out, tk_error *err)
{
	const ctf_event_out *e;
	tk_status st = ctf_reader_next(l->ctf, &e, err);
	if (st != TK_OK)
		return st;
	tk_event *ev = &l->ev;
	ev->cls = &e->ec->info;
	ev->stream_id = e->sc->id;
	ev->stream_instance = e->stream->stream_id;
	ev->cpu = e->cpu >= 0 && e->cpu <= INT32_MAX ? (int32_t)e->cpu : TK_CPU_NONE;
	ev->pid = ev->tid = TK_PID_NONE;
	ev->has_time = e->has_clock;
	ev->time_ns = e->has_clock && e->ns > 0 ? (uint64_t)e->ns : 0;
	ev->time_raw = e->clock_raw;
	ev->offset = e->offset;
	*out = ev;
	return TK_OK;
}

tk_status tkpy_lean_next(tkpy_lean *l, const tk_event **out, uint64_t *period, tk_error *err)
{
	*period = 0;
	return l->pf ? perf_next(l, out, period, err) : ctf_next(l, out, err);
}
