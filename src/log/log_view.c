/* A checked view of a logger region and the time-merged walk over its
 * rings; see log_impl.h. The same code reads the live log (for dumps) and
 * a file left behind by a dead process, so nothing in the region is
 * trusted: every offset, count, string and slot is checked before use. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "log/log_impl.h"

static bool fail(const char **why, uint64_t *at, const char *msg, uint64_t off)
{
	*why = msg;
	*at = off;
	return false;
}

/* [off, off + n * each) inside size, without overflow. */
static bool table_ok(uint64_t off, uint64_t n, uint64_t each, uint64_t size)
{
	if (off > size || (each && n > (size - off) / each))
		return false;
	return true;
}

static void set_type(tk_lg_vtype *t, const tk_lg_type_entry *e)
{
	memset(t, 0, sizeof *t);
	if (atomic_load_explicit(&((tk_lg_type_entry *)e)->commit, memory_order_acquire) != 1)
		return;
	if (!memchr(e->format, 0, sizeof e->format) || !memchr(e->kinds, 0, sizeof e->kinds))
		return;
	size_t nk = strlen(e->kinds);
	if (nk != e->n_args || nk > TK_LOG_MAX_ARGS)
		return;
	unsigned words = 0;
	for (size_t i = 0; i < nk; i++) {
		unsigned w = tk_lg_kind_words(e->kinds[i]);
		if (!w)
			return;
		words += w;
	}
	if (words > TK_LOG_MAX_ARGS)
		return;
	t->format = e->format;
	t->kinds = e->kinds;
	t->n_args = (unsigned)nk;
	t->words = words;
	t->name_len = strcspn(e->format, " %(");
}

static double clamp_tps(double tps)
{
	return isfinite(tps) && tps > 1e3 && tps < 1e13 ? tps : 0;
}

bool tk_lg_view_open(tk_lg_view *v, const void *base, uint64_t size, const char **why, uint64_t *at)
{
	memset(v, 0, sizeof *v);
	v->base = base;
	v->size = size;
	if (size < LG_HEADER_SIZE)
		return fail(why, at, "file shorter than the 4096-byte log header", 0);
	const tk_lg_header *h = base;
	v->h = h;
	if (memcmp(h->magic, LG_MAGIC, 8) != 0)
		return fail(why, at, "not a tracekit log file (magic)", 0);
	if (h->endian != LG_ENDIAN)
		return fail(why, at, "log written on a machine of the other byte order", 8);
	if (h->header_size != LG_HEADER_SIZE || h->slot_size != LG_SLOT_SIZE)
		return fail(why, at, "unknown header or slot size", 12);
	if (h->file_size != size)
		return fail(why, at, "file size differs from the size in the header (cut or grown)",
			    offsetof(tk_lg_header, file_size));
	if (h->max_types > LG_MAX_TYPES || h->max_tracks > LG_MAX_TRACKS ||
	    h->max_rings > LG_MAX_RINGS || h->strtab_cap > UINT32_MAX)
		return fail(why, at, "table capacity out of range",
			    offsetof(tk_lg_header, max_types));
	if (!table_ok(h->types_off, h->max_types, LG_TYPE_SIZE, size) ||
	    !table_ok(h->tracks_off, h->max_tracks, LG_TRACK_SIZE, size) ||
	    !table_ok(h->strtab_off, h->strtab_cap, 1, size) ||
	    !table_ok(h->rings_dir_off, h->max_rings, LG_RING_SIZE, size) ||
	    ((h->types_off | h->tracks_off | h->rings_dir_off | h->rings_off) & 7))
		return fail(why, at, "table offset outside the file",
			    offsetof(tk_lg_header, types_off));
	if (h->ring_slots == 0 || (h->ring_slots & (h->ring_slots - 1)) ||
	    h->ring_slots > size / LG_SLOT_SIZE)
		return fail(why, at, "ring size is not a power of two inside the file",
			    offsetof(tk_lg_header, ring_slots));
	if (h->mode > TK_LOG_STOP_WHEN_FULL ||
	    (h->clock != LG_CLOCK_TSC && h->clock != LG_CLOCK_MONO && h->clock != LG_CLOCK_COARSE))
		return fail(why, at, "unknown mode or clock", offsetof(tk_lg_header, mode));
	v->mode = h->mode;
	v->init_ticks = h->init_ticks;
	v->init_real_ns = h->init_real_ns;
	v->init_mono_ns = h->init_mono_ns;
	v->tps = h->clock != LG_CLOCK_TSC ? 1e9 : clamp_tps(h->init_tps);
	if (v->tps == 0)
		return fail(why, at, "clock calibration out of range",
			    offsetof(tk_lg_header, init_tps));
	if (atomic_load_explicit(&((tk_lg_header *)h)->end_valid, memory_order_acquire)) {
		v->end_ticks = h->end_ticks;
		v->end_real_ns = h->end_real_ns;
		v->end_mono_ns = h->end_mono_ns;
		/* over 100 ms the pair at stop beats the 5 ms calibration */
		if (h->clock == LG_CLOCK_TSC && v->end_mono_ns > v->init_mono_ns + 100000000u &&
		    v->end_ticks > v->init_ticks) {
			double tps = clamp_tps((double)(v->end_ticks - v->init_ticks) * 1e9 /
					       (double)(v->end_mono_ns - v->init_mono_ns));
			if (tps)
				v->tps = tps;
		}
	}
	const uint8_t *b = base;
	uint32_t nt = atomic_load(&((tk_lg_header *)h)->n_types);
	v->n_types = nt < h->max_types ? nt : h->max_types;
	for (unsigned i = 0; i < v->n_types; i++)
		set_type(&v->types[i],
			 (const tk_lg_type_entry *)(b + h->types_off + (uint64_t)i * LG_TYPE_SIZE));
	uint32_t nk = atomic_load(&((tk_lg_header *)h)->n_tracks);
	v->n_tracks = nk < h->max_tracks ? nk : h->max_tracks;
	for (unsigned i = 0; i < v->n_tracks; i++) {
		const tk_lg_track_entry *e =
		    (const tk_lg_track_entry *)(b + h->tracks_off + (uint64_t)i * LG_TRACK_SIZE);
		bool ok = atomic_load_explicit(&((tk_lg_track_entry *)e)->commit,
					       memory_order_acquire) == 1 &&
			  memchr(e->name, 0, sizeof e->name);
		v->tracks[i] = ok ? e->name : NULL;
	}
	v->strtab = (const char *)b + h->strtab_off;
	uint32_t sl = atomic_load(&((tk_lg_header *)h)->strtab_len);
	v->strtab_len = sl < h->strtab_cap ? sl : (uint32_t)h->strtab_cap;
	v->dropped = atomic_load(&((tk_lg_header *)h)->dropped_noring);
	uint32_t nr = atomic_load(&((tk_lg_header *)h)->n_rings);
	nr = nr < h->max_rings ? nr : h->max_rings;
	for (unsigned i = 0; i < nr; i++) {
		const tk_lg_ring_dir *d =
		    (const tk_lg_ring_dir *)(b + h->rings_dir_off + (uint64_t)i * LG_RING_SIZE);
		if (atomic_load_explicit(&((tk_lg_ring_dir *)d)->commit, memory_order_acquire) != 1)
			continue;
		if (d->slots_off < h->rings_off || (d->slots_off - h->rings_off) % LG_SLOT_SIZE ||
		    !table_ok(d->slots_off, h->ring_slots, LG_SLOT_SIZE, size))
			continue;
		tk_lg_vring *r = &v->rings[v->n_rings++];
		r->slots = (const tk_log__slot *)(b + d->slots_off);
		r->mask = h->ring_slots - 1;
		r->pid = d->pid;
		r->tid = d->tid;
		r->dropped = atomic_load(&((tk_lg_ring_dir *)d)->dropped);
		uint64_t head =
		    atomic_load_explicit(&((tk_lg_ring_dir *)d)->head, memory_order_acquire);
		uint64_t limit = h->mode == TK_LOG_STOP_WHEN_FULL ? h->ring_slots : UINT64_MAX;
		if (head > limit)
			head = limit;
		/* the head is published after the commit word: a process killed
		 * between the two left committed events past it */
		for (uint64_t k = 0; k < h->ring_slots && head < limit; k++, head++)
			if (atomic_load_explicit(&((tk_log__slot *)r->slots)[head & r->mask].commit,
						 memory_order_acquire) != (uint32_t)(head + 1))
				break;
		r->end = head;
		r->begin = head > h->ring_slots ? head - h->ring_slots : 0;
	}
	return true;
}

double tk_lg_seconds(const tk_lg_view *v, uint64_t ticks)
{
	return (double)(int64_t)(ticks - v->init_ticks) / v->tps;
}

/* Copies event seq of ring ri if its slot holds it, whole and valid. */
static bool load(const tk_lg_view *v, unsigned ri, uint64_t seq, tk_lg_event *e)
{
	const tk_lg_vring *r = &v->rings[ri];
	tk_log__slot *s = (tk_log__slot *)&r->slots[seq & r->mask];
	uint32_t want = (uint32_t)(seq + 1);
	if (atomic_load_explicit(&s->commit, memory_order_acquire) != want)
		return false;
	e->ticks = s->time;
	e->type = s->type;
	e->track = s->track;
	memcpy(e->w, (const void *)s->w, sizeof e->w);
	/* a writer that overwrote the slot meanwhile changed the commit word */
	atomic_thread_fence(memory_order_acquire);
	if (atomic_load_explicit(&s->commit, memory_order_relaxed) != want)
		return false;
	if (e->type >= v->n_types || !v->types[e->type].format || e->track >= v->n_tracks ||
	    !v->tracks[e->track])
		return false;
	e->ring = ri;
	e->seq = seq;
	e->seconds = tk_lg_seconds(v, e->ticks);
	return true;
}

static void fill(tk_lg_iter *it, unsigned ri)
{
	const tk_lg_vring *r = &it->v->rings[ri];
	while (!it->have[ri] && it->pos[ri] < r->end) {
		uint64_t seq = it->pos[ri]++;
		if (load(it->v, ri, seq, &it->next[ri]) &&
		    (it->track < 0 || it->next[ri].track == (unsigned)it->track))
			it->have[ri] = true;
	}
}

void tk_lg_iter_init(tk_lg_iter *it, const tk_lg_view *v, int track)
{
	it->v = v;
	it->track = track;
	for (unsigned i = 0; i < v->n_rings; i++) {
		it->pos[i] = v->rings[i].begin;
		it->have[i] = false;
	}
}

bool tk_lg_iter_next(tk_lg_iter *it, tk_lg_event *e)
{
	int best = -1;
	for (unsigned i = 0; i < it->v->n_rings; i++) {
		fill(it, i);
		if (it->have[i] && (best < 0 || it->next[i].ticks < it->next[best].ticks))
			best = (int)i;
	}
	if (best < 0)
		return false;
	*e = it->next[best];
	it->have[best] = false;
	return true;
}
