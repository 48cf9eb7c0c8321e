/* ctf_reader_columns (ctf_columns.h): the merge's events into column
 * arrays. Each event ctf_reader_next() returns is written, then, while
 * its stream stays first, the stream's next events of the packet are
 * decoded by the lean fast path here and written as they come. An event
 * the fast path cannot take whole (it needs the interpreter, a warning,
 * the slow clock conversion, or it comes after another stream's head) is
 * left undecoded: ctf_reader_next() then decodes it as always and the
 * merge puts it in its place. So every row and every side effect (counts,
 * warnings, errors) is the one the event-by-event read gives. */
#include "ctf/ctf_columns.h"

#include "ctf/ctf_decode_inline.h"

static inline void put_row(const ctf_columns *c, size_t i, const ctf_event_out *e)
{
	if (c->ts)
		c->ts[i] = e->has_clock && e->ns > 0 ? (uint64_t)e->ns : 0;
	if (c->offset)
		c->offset[i] = e->offset;
	if (c->cpu)
		c->cpu[i] = e->cpu >= 0 && e->cpu <= INT32_MAX ? (int32_t)e->cpu : TK_CPU_NONE;
	if (c->cls)
		c->cls[i] = &e->ec->info;
}

/* How far the top stream may run: before the heads of the next two
 * streams of the heap (those the merge compares the top with after an
 * advance). False when one of them is not keyed on an event time (a
 * pending discard report, no event, no clock): then the merge decides
 * every event. */
static bool top_bound(const ctf_reader *r, bool *bounded, int64_t *ns, uint64_t *order)
{
	*bounded = false;
	for (size_t i = 1; i < 3 && i < r->heap_n; i++) {
		const ctf_stream *h = r->heap[i];
		if (h->n_pending || !h->has_event || !h->ev.has_clock)
			return false;
		if (!*bounded || h->ev.ns < *ns || (h->ev.ns == *ns && h->order < *order)) {
			*bounded = true;
			*ns = h->ev.ns;
			*order = h->order;
		}
	}
	return true;
}

/* The top stream s, whose current event was just written, runs on: up
 * to room more rows from index i. Returns how many were written. The
 * stream's state is kept in locals and stored once at the end (the
 * column stores would otherwise make the compiler reload it per event). */
static size_t run_top(ctf_reader *r, ctf_stream *s, const ctf_columns *c, size_t i, size_t room)
{
	bool bounded;
	int64_t bound_ns = 0;
	uint64_t bound_order = 0;
	if (!s->lean_run || !s->in_packet || s->failed || s->ended || s->n_pending ||
	    !s->has_event || !top_bound(r, &bounded, &bound_ns, &bound_order))
		return 0;
	ctf_decoder *d = &s->dec;
	const ctf_stream_class *sc = s->sc;
	uint64_t *restrict ts = c->ts ? c->ts + i : NULL;
	uint64_t *restrict offs = c->offset ? c->offset + i : NULL;
	int32_t *restrict cpus = c->cpu ? c->cpu + i : NULL;
	const tk_event_class **restrict cls = c->cls ? c->cls + i : NULL;
	/* an event that would warn goes to ctf_stream_advance, which warns */
	const bool check_backwards = !(s->warned & (1u << CTF_WARN_BACKWARDS));
	const bool check_outside = !(s->warned & (1u << CTF_WARN_OUTSIDE));
	/* fixed for the packet: the lean run starts and ends inside one */
	const int32_t cpu = s->cpu >= 0 && s->cpu <= INT32_MAX ? (int32_t)s->cpu : TK_CPU_NONE;
	const uint64_t pkt_off = s->pkt_off, plain_end = s->clk_plain_end;
	const uint64_t begin = s->cur_begin_or_0, end = s->cur_end;
	const int64_t base = s->clk_base;
	const uint64_t order = s->order;
	int64_t last_ns = s->last_ns;
	bool has_last = s->has_last_ns;
	const ctf_event_class *ec = NULL;
	uint64_t ev_pos = 0, cyc = 0;
	size_t k = 0;
	while (k < room && d->pos < d->limit_bits) {
		const uint64_t pos = d->pos, clock = d->clock;
		const bool clock_set = d->clock_set;
		const ctf_event_class *e;
		d->meaning_set[CTF_MEANING_EVENT_ID] = false;
		__builtin_prefetch(d->buf + pos / 8 + 1024);
		if (UNLIKELY(!ctf_decode_event_fast(d, sc, &e)))
			break; /* nothing changed */
		const uint64_t t = d->clock;
		const int64_t ns = base + (int64_t)(t < plain_end ? t : 0);
		if (UNLIKELY(
			d->pos == pos || t >= plain_end ||
			(check_backwards && has_last && ns < last_ns) ||
			(check_outside && (t < begin || t > end)) ||
			(bounded && !(ns < bound_ns || (ns == bound_ns && order < bound_order))))) {
			/* the event goes through ctf_stream_advance and the merge */
			d->pos = pos;
			d->clock = clock;
			d->clock_set = clock_set;
			break;
		}
		((ctf_event_class *)e)->n_seen++;
		if (ts)
			ts[k] = ns > 0 ? (uint64_t)ns : 0;
		if (offs)
			offs[k] = pkt_off + pos / 8;
		if (cpus)
			cpus[k] = cpu;
		if (cls)
			cls[k] = &e->info;
		ec = e;
		ev_pos = pos;
		cyc = t;
		last_ns = ns;
		has_last = true;
		k++;
	}
	if (k) {
		/* what ctf_stream_advance leaves for the last event decoded */
		ctf_event_out *ev = &s->ev;
		ev->header = ev->common_context = ev->context = ev->payload = NULL;
		ev->ec = ec;
		ev->offset = pkt_off + ev_pos / 8;
		ev->clock_raw = cyc;
		ev->ns = last_ns;
		s->last_ns = last_ns;
		s->has_last_ns = has_last;
		s->n_events += k;
	}
	return k;
}

tk_status ctf_reader_columns(ctf_reader *r, const ctf_columns *c, size_t max, size_t *n,
			     tk_error *err)
{
	size_t i = 0;
	tk_status st = TK_OK;
	while (i < max) {
		const ctf_event_out *e;
		if ((st = ctf_reader_next(r, &e, err)) != TK_OK)
			break;
		put_row(c, i++, e);
		/* e is the top stream's current event (the merge hands out
		 * &heap[0]->ev) */
		if (i < max && r->heap_n && e == &r->heap[0]->ev)
			i += run_top(r, r->heap[0], c, i, max - i);
	}
	*n = i;
	return st;
}
