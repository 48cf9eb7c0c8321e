/* CPEL / elog tracks (the payload's "track" string) and their state
 * intervals (TK_CTX_SPAN_STATE), report --state's rule (cpelstate, g2):
 * an event on a track puts the track in the state the event names until
 * the next event on the same track. Track names are interned once. */
#include <stdlib.h>
#include <string.h>

#include "context/context_internal.h"

static uint64_t fnv(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 0x100000001b3ULL;
	return h;
}

static int64_t track_find(const tk_context *c, const char *s, size_t n, uint64_t *slot)
{
	uint64_t h = fnv(s, n);
	for (;; h++) {
		uint64_t *ix = tk_hashmap_get(&c->track_by_hash, h);
		if (!ix)
			break;
		const char *name = c->tracks[*ix].name;
		if (strlen(name) == n && memcmp(name, s, n) == 0)
			return (int64_t)*ix;
	}
	if (slot)
		*slot = h;
	return -1;
}

int64_t ctx_track_of(const tk_context *c, const ctx_class *k, const tk_event *ev)
{
	const char *s;
	size_t n;
	if (!k || k->f_track == CTX_NO_FIELD || !ctx_value_str(ctx_field(ev, k->f_track), &s, &n))
		return -1;
	return track_find(c, s, n, NULL);
}

tk_status ctx_state_event(tk_context *c, const ctx_class *k, const tk_event *ev, tk_error *err)
{
	const char *s;
	size_t n;
	if (!ctx_value_str(ctx_field(ev, k->f_track), &s, &n))
		return TK_OK;
	uint64_t slot = 0;
	int64_t ix = track_find(c, s, n, &slot);
	if (ix < 0) {
		if (c->n_tracks >= c->opt.max_threads) {
			c->stats.dropped_threads++;
			return TK_OK;
		}
		if (c->n_tracks == c->cap_tracks) {
			size_t nc = c->cap_tracks ? c->cap_tracks * 2 : 32;
			ctx_track *nt = realloc(c->tracks, nc * sizeof *nt);
			if (!nt)
				return tk_error_set(err, TK_ERR_NOMEM, ev->offset,
						    "model context: out of memory");
			c->tracks = nt;
			c->cap_tracks = nc;
		}
		const char *name = ctx_intern(c, s, n);
		if (!name || !tk_hashmap_put(&c->track_by_hash, slot, c->n_tracks))
			return tk_error_set(err, TK_ERR_NOMEM, ev->offset,
					    "model context: out of memory");
		c->tracks[c->n_tracks] = (ctx_track){.name = name};
		ix = (int64_t)c->n_tracks++;
	}
	ctx_track *tr = &c->tracks[ix];
	if (!(c->flags & TK_CTX_SPAN_STATE) || !ev->has_time)
		return TK_OK;
	if (tr->open) {
		tk_span sp = {.kind = TK_SPAN_STATE,
			      .name = tr->state,
			      .begin_ns = tr->since,
			      .end_ns = ev->time_ns < tr->since ? tr->since : ev->time_ns,
			      .cpu = ev->cpu,
			      .pid = TK_PID_NONE,
			      .tid = TK_PID_NONE,
			      .track = ix};
		ctx_span_emit(c, &sp);
	}
	tr->open = true;
	tr->since = ev->time_ns;
	tr->state = ev->cls && ev->cls->name ? ev->cls->name : "event";
	return TK_OK;
}

void ctx_state_finish(tk_context *c, uint64_t end)
{
	for (size_t i = 0; i < c->n_tracks; i++) {
		ctx_track *tr = &c->tracks[i];
		if (!tr->open || !(c->flags & TK_CTX_SPAN_STATE))
			continue;
		tk_span sp = {.kind = TK_SPAN_STATE,
			      .name = tr->state,
			      .begin_ns = tr->since,
			      .end_ns = end < tr->since ? tr->since : end,
			      .cpu = TK_CPU_NONE,
			      .pid = TK_PID_NONE,
			      .tid = TK_PID_NONE,
			      .track = (int64_t)i,
			      .truncated = true};
		ctx_span_emit(c, &sp);
		tr->open = false;
	}
}

void ctx_tracks_free(tk_context *c)
{
	free(c->tracks);
	tk_hashmap_free(&c->track_by_hash);
}

size_t tk_context_n_tracks(const tk_context *c)
{
	return c ? c->n_tracks : 0;
}

const char *tk_context_track_name(const tk_context *c, size_t i)
{
	return c && i < c->n_tracks ? c->tracks[i].name : NULL;
}

int64_t tk_context_event_track(const tk_context *c, const tk_event *ev)
{
	if (!c || !ev)
		return -1;
	const ctx_class *k = c->last_class;
	if (!k || k->cls != ev->cls) {
		/* a class seen before: look it up without adding */
		for (size_t i = 0; i < c->n_classes; i++)
			if (c->classes[i].cls == ev->cls) {
				k = &c->classes[i];
				break;
			}
	}
	return k && k->cls == ev->cls ? ctx_track_of(c, k, ev) : -1;
}
