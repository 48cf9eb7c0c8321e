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
 * to room more rows from index i. Returns how many were written. */
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
	ctf_event_out *ev = &s->ev;
	const bool warned_backwards = s->warned & (1u << CTF_WARN_BACKWARDS);
	const bool warned_outside = s->warned & (1u << CTF_WARN_OUTSIDE);
	/* fixed for the packet: the lean run starts and ends inside one */
	const int32_t cpu = s->cpu >= 0 && s->cpu <= INT32_MAX ? (int32_t)s->cpu : TK_CPU_NONE;
	const uint64_t pkt_off = s->pkt_off;
	size_t k = 0;
	ev->header = ev->common_context = ev->context = ev->payload = NULL;
	while (k < room && d->pos < d->limit_bits) {
		const uint64_t ev_pos = d->pos, clock = d->clock;
		const bool clock_set = d->clock_set;
		const ctf_event_class *ec;
		d->meaning_set[CTF_MEANING_EVENT_ID] = false;
		__builtin_prefetch(d->buf + ev_pos / 8 + 1024);
		if (UNLIKELY(!ctf_decode_event_fast(d, sc, &ec)))
			break; /* nothing changed */
		const uint64_t cyc = d->clock;
		const int64_t ns = s->clk_base + (int64_t)(cyc < s->clk_plain_end ? cyc : 0);
		if (UNLIKELY(d->pos == ev_pos || cyc >= s->clk_plain_end ||
			     (!warned_backwards && s->has_last_ns && ns < s->last_ns) ||
			     (!warned_outside && (cyc < s->cur_begin_or_0 || cyc > s->cur_end)) ||
			     (bounded &&
			      !(ns < bound_ns || (ns == bound_ns && s->order < bound_order))))) {
			/* the event goes through ctf_stream_advance and the merge */
			d->pos = ev_pos;
			d->clock = clock;
			d->clock_set = clock_set;
			break;
		}
		/* what ctf_stream_advance leaves for a decoded event */
		ev->ec = ec;
		ev->offset = pkt_off + ev_pos / 8;
		ev->clock_raw = cyc;
		ev->ns = ns;
		s->last_ns = ns;
		s->has_last_ns = true;
		s->n_events++;
		((ctf_event_class *)ec)->n_seen++;
		if (c->ts)
			c->ts[i + k] = ns > 0 ? (uint64_t)ns : 0;
		if (c->offset)
			c->offset[i + k] = ev->offset;
		if (c->cpu)
			c->cpu[i + k] = cpu;
		if (c->cls)
			c->cls[i + k] = &ec->info;
		k++;
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
