/* Layout of the logger's region; see log_impl.h. */
#include <string.h>

#include "log/log_impl.h"

unsigned tk_lg_kind_words(char k)
{
	switch (k) {
	case TK_LOG_U32:
	case TK_LOG_U64:
	case TK_LOG_I64:
	case TK_LOG_F64:
	case TK_LOG_SREF: return 1;
	case TK_LOG_STR: return LG_STR_WORDS;
	default: return 0;
	}
}

static uint64_t fixed_size(uint32_t max_rings)
{
	return LG_HEADER_SIZE + (uint64_t)LG_MAX_TYPES * LG_TYPE_SIZE +
	       (uint64_t)LG_MAX_TRACKS * LG_TRACK_SIZE + LG_STRTAB_CAP +
	       (uint64_t)max_rings * LG_RING_SIZE;
}

uint64_t tk_lg_region_size(uint64_t ring_slots, uint32_t max_rings)
{
	if (max_rings == 0 || max_rings > LG_MAX_RINGS || ring_slots == 0 ||
	    ring_slots > ((uint64_t)1 << 40) / LG_SLOT_SIZE / max_rings)
		return 0;
	return fixed_size(max_rings) + ring_slots * max_rings * LG_SLOT_SIZE;
}

void tk_lg_region_init(void *base, uint64_t size, uint64_t ring_slots, uint32_t max_rings,
		       tk_log_mode mode, unsigned clock, bool shared_ring)
{
	tk_lg_header *h = base;
	h->endian = LG_ENDIAN;
	h->header_size = LG_HEADER_SIZE;
	h->file_size = size;
	h->slot_size = LG_SLOT_SIZE;
	h->max_types = LG_MAX_TYPES;
	h->max_tracks = LG_MAX_TRACKS;
	h->max_rings = max_rings;
	h->types_off = LG_HEADER_SIZE;
	h->tracks_off = h->types_off + (uint64_t)LG_MAX_TYPES * LG_TYPE_SIZE;
	h->strtab_off = h->tracks_off + (uint64_t)LG_MAX_TRACKS * LG_TRACK_SIZE;
	h->strtab_cap = LG_STRTAB_CAP;
	h->rings_dir_off = h->strtab_off + LG_STRTAB_CAP;
	h->rings_off = h->rings_dir_off + (uint64_t)max_rings * LG_RING_SIZE;
	h->ring_slots = ring_slots;
	h->mode = (uint32_t)mode;
	h->clock = clock;
	h->shared_ring = shared_ring;
	/* the magic last: a reader of a half-initialised file sees no log */
	atomic_thread_fence(memory_order_release);
	memcpy(h->magic, LG_MAGIC, 8);
}
