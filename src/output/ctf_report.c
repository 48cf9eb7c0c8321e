/* `tracekit info` and `tracekit stats` for CTF traces: one full read of
 * the trace through a native CTF session (decoding every event, values
 * left out: the lean plans), then a summary. */
#include "output/ctf_report.h"

#include <string.h>

#include "session/session_ctf.h"

typedef struct discard_totals {
	uint64_t events, packets;
	uint64_t unknown_events; /* reports without a count */
} discard_totals;

static void count_discard(void *user, const ctf_discard *d)
{
	discard_totals *t = user;
	if (d->count == UINT64_MAX)
		t->unknown_events++;
	else if (d->packets)
		t->packets += d->count;
	else
		t->events += d->count;
}

static void put_ns(tk_writer *w, int64_t ns)
{
	if (ns < 0) {
		tk_put_char(w, '-');
		ns = -ns;
	}
	tk_put_u64(w, (uint64_t)ns / 1000000000u);
	tk_put_char(w, '.');
	tk_put_u64_pad(w, (uint64_t)ns % 1000000000u, 9, '0');
}

static void put_uuid(tk_writer *w, const uint8_t *u)
{
	static const char hx[] = "0123456789abcdef";
	for (int i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			tk_put_char(w, '-');
		tk_put_char(w, hx[u[i] >> 4]);
		tk_put_char(w, hx[u[i] & 15]);
	}
}

static void put_trace_classes(tk_writer *w, const ctf_trace *t)
{
	const ctf_trace_class *tc = t->tc;
	tk_put_fmt(w, "trace: %s\n", t->dir);
	tk_put_fmt(w, "  CTF %u.%u, %s-endian", tc->major, tc->minor,
		   tc->little_endian ? "little" : "big");
	if (tc->has_uuid) {
		tk_put_str(w, ", uuid ");
		put_uuid(w, tc->uuid);
	}
	tk_put_char(w, '\n');
	if (tc->n_env) {
		tk_put_str(w, "  env:\n");
		for (size_t i = 0; i < tc->n_env; i++) {
			const tk_env_entry *e = &tc->env[i];
			if (e->is_int)
				tk_put_fmt(w, "    %s = %lld\n", e->key, (long long)e->i);
			else
				tk_put_fmt(w, "    %s = \"%s\"\n", e->key, e->str ? e->str : "");
		}
	}
	for (size_t i = 0; i < tc->n_clocks; i++) {
		const ctf_clock *c = &tc->clocks[i];
		tk_put_fmt(w,
			   "  clock %s: freq %llu Hz, offset_s %lld, offset %llu cycles, precision "
			   "%llu, %s",
			   c->info.name, (unsigned long long)c->info.freq, (long long)c->offset_s,
			   (unsigned long long)c->offset_cycles,
			   (unsigned long long)c->info.precision,
			   c->info.absolute ? "absolute" : "not absolute");
		if (c->has_uuid) {
			tk_put_str(w, ", uuid ");
			put_uuid(w, c->uuid);
		}
		if (c->info.description)
			tk_put_fmt(w, ", \"%s\"", c->info.description);
		tk_put_char(w, '\n');
	}
	for (size_t i = 0; i < tc->n_streams; i++) {
		const ctf_stream_class *sc = tc->streams[i];
		tk_put_fmt(w, "  stream class %llu: %zu event classes, clock %s\n",
			   (unsigned long long)sc->id, sc->n_events,
			   sc->clock >= 0 ? tc->clocks[sc->clock].info.name : "(none)");
		for (size_t j = 0; j < sc->n_events; j++) {
			const tk_event_class *ec = &sc->events[j]->info;
			tk_put_fmt(w, "    event %llu: %s", (unsigned long long)ec->id,
				   ec->name ? ec->name : "");
			if (ec->loglevel >= 0)
				tk_put_fmt(w, " (loglevel %lld)", (long long)ec->loglevel);
			tk_put_char(w, '\n');
		}
	}
}

static tk_status describe(const char *path, const tk_render_options *opt, tk_writer *out,
			  tk_error *err, bool stats)
{
	tk_open_options oo = {.format = TK_FORMAT_CTF, .log = opt->log, .log_user = opt->log_user};
	tk_session *ses;
	tk_status st = tk_session_open(path, &oo, TK_SESSION_NATIVE, &ses, err);
	if (st != TK_OK)
		return st;
	ctf_reader *r = tk_session_ctf(ses);
	discard_totals dt = {0};
	r->on_discard = count_discard;
	r->lean = true; /* counts and times only: no event values */
	r->discard_user = &dt;
	ctf_span sp;
	st = tk_session_ctf_span(ses, &sp, err);
	if (st != TK_OK) {
		tk_session_close(ses);
		return st;
	}
	for (size_t i = 0; i < r->n_traces; i++) {
		const ctf_trace *t = r->traces[i];
		if (!stats) {
			put_trace_classes(out, t);
		} else {
			tk_put_fmt(out, "trace: %s\n", t->dir);
			tk_put_str(out, "  events per class:\n");
			for (size_t k = 0; k < t->tc->n_streams; k++) {
				const ctf_stream_class *sc = t->tc->streams[k];
				for (size_t j = 0; j < sc->n_events; j++)
					if (sc->events[j]->n_seen)
						tk_put_fmt(
						    out,
						    "    %12llu  %s (stream class %llu, id %llu)\n",
						    (unsigned long long)sc->events[j]->n_seen,
						    sc->events[j]->info.name
							? sc->events[j]->info.name
							: "",
						    (unsigned long long)sc->id,
						    (unsigned long long)sc->events[j]->info.id);
			}
		}
		tk_put_str(out, stats ? "  events per stream:\n" : "  data streams:\n");
		for (size_t j = 0; j < t->n_streams; j++) {
			const ctf_stream *s = t->streams[j];
			tk_put_fmt(
			    out,
			    "    %12llu  %s (stream class %llu, stream id %llu, %llu packets)\n",
			    (unsigned long long)s->n_events, s->name,
			    (unsigned long long)(s->sc ? s->sc->id : 0),
			    (unsigned long long)s->stream_id, (unsigned long long)s->n_packets);
		}
	}
	tk_put_fmt(out, "events: %llu\n", (unsigned long long)sp.n_events);
	if (sp.n_timed) {
		tk_put_str(out, "time span: ");
		put_ns(out, sp.first_ns);
		tk_put_str(out, " .. ");
		put_ns(out, sp.last_ns);
		tk_put_str(out, " s from the clock origin (");
		put_ns(out, sp.last_ns - sp.first_ns);
		tk_put_str(out, " s)\n");
	}
	tk_put_fmt(out, "discarded events: %llu", (unsigned long long)dt.events);
	if (dt.unknown_events)
		tk_put_fmt(out, " (+ %llu reports without a count)",
			   (unsigned long long)dt.unknown_events);
	tk_put_fmt(out, "\ndiscarded packets: %llu\n", (unsigned long long)dt.packets);
	tk_session_close(ses);
	return TK_OK;
}

tk_status tk_ctf_info(const char *path, const tk_render_options *opt, tk_writer *out, tk_error *err)
{
	return describe(path, opt, out, err, false);
}

tk_status tk_ctf_stats(const char *path, const tk_render_options *opt, tk_writer *out,
		       tk_error *err)
{
	return describe(path, opt, out, err, true);
}
