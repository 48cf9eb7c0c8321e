/* CPEL / elog tracks (the payload's "track" string) and their state
 * intervals (TK_CTX_SPAN_STATE), report --state's rule (VPP's cpelstate):
 * a span from one occurrence of an event on a track to its next
 * occurrence on the same track, named by the event (time going backwards
 * gives no span, as report skips it). Spans of different events on one
 * track may overlap. Track names are interned once; open states are one
 * hash entry per (track, event class), capped with the spans. */
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
	if (!(c->flags & TK_CTX_SPAN_STATE) || !ev->has_time)
		return TK_OK;
	uint64_t key = (uint64_t)ix << 32 | (uint64_t)(k - c->classes);
	uint64_t *since = tk_hashmap_get(&c->state_open, key);
	if (since) {
		if (ev->time_ns >= *since) {
			tk_span sp = {.kind = TK_SPAN_STATE,
				      .name = k->name,
				      .begin_ns = *since,
				      .end_ns = ev->time_ns,
				      .cpu = ev->cpu,
				      .pid = TK_PID_NONE,
				      .tid = TK_PID_NONE,
				      .track = ix};
			ctx_span_emit(c, &sp);
		}
		*since = ev->time_ns;
		return TK_OK;
	}
	if (c->state_open.n >= c->opt.max_open_spans) {
		c->stats.dropped_spans++;
		return TK_OK;
	}
	if (!tk_hashmap_put(&c->state_open, key, ev->time_ns))
		return tk_error_set(err, TK_ERR_NOMEM, ev->offset, "model context: out of memory");
	return TK_OK;
}

void ctx_state_finish(tk_context *c, uint64_t end)
{
	tk_hashmap *m = &c->state_open;
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->used[i])
			continue;
		uint64_t track = m->keys[i] >> 32, ci = m->keys[i] & 0xffffffffu;
		/* the interned name: the classes may be gone with their source */
		const char *name = ci < c->n_classes ? c->classes[ci].name : "event";
		uint64_t since = m->vals[i];
		tk_span sp = {.kind = TK_SPAN_STATE,
			      .name = name,
			      .begin_ns = since,
			      .end_ns = end < since ? since : end,
			      .cpu = TK_CPU_NONE,
			      .pid = TK_PID_NONE,
			      .tid = TK_PID_NONE,
			      .track = (int64_t)track,
			      .truncated = true};
		ctx_span_emit(c, &sp);
	}
	tk_hashmap_free(m);
	tk_hashmap_init(m);
}

void ctx_tracks_free(tk_context *c)
{
	tk_hashmap_free(&c->state_open);
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
