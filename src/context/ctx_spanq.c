/* Completed spans wait in a ring until the consumer drains them with
 * tk_context_next_span(). A consumer drains after each event, so the ring
 * stays small; it is capped by max_open_spans (beyond: dropped, counted)
 * for a consumer that never drains. */
#include <stdlib.h>
#include <string.h>

#include "context/context_internal.h"

void ctx_span_emit(tk_context *c, const tk_span *s)
{
	if ((c->opt.has_begin && s->end_ns < c->opt.begin_ns) ||
	    (c->opt.has_end && s->begin_ns > c->opt.end_ns))
		return; /* outside the consumer's window */
	if (c->q_n == c->q_cap) {
		if (c->q_cap >= c->opt.max_open_spans) {
			c->stats.dropped_spans++;
			return;
		}
		size_t nc = c->q_cap ? c->q_cap * 2 : 256;
		tk_span *nq = malloc(nc * sizeof *nq);
		if (!nq) {
			c->stats.oom = true;
			c->stats.dropped_spans++;
			return;
		}
		/* unwrap the ring into the new array */
		for (size_t i = 0; i < c->q_n; i++)
			nq[i] = c->q[(c->q_head + i) % c->q_cap];
		free(c->q);
		c->q = nq;
		c->q_cap = nc;
		c->q_head = 0;
	}
	c->q[(c->q_head + c->q_n) % c->q_cap] = *s;
	c->q_n++;
	c->stats.spans++;
}

const tk_span *tk_context_next_span(tk_context *c)
{
	if (!c || !c->q_n)
		return NULL;
	c->out = c->q[c->q_head];
	c->q_head = (c->q_head + 1) % c->q_cap;
	c->q_n--;
	return &c->out;
}

void ctx_spanq_free(tk_context *c)
{
	free(c->q);
	c->q = NULL;
	c->q_n = c->q_cap = 0;
}
