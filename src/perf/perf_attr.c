/* perf_event_attr decoding (any size >= 64, both byte orders) and the
 * id -> attr map perf builds from attrs sections, HEADER_ATTR, EVENT_DESC
 * and ID_INDEX (tools/perf/util/evlist.c id_pos / is_pos rules). */
#include <stdlib.h>
#include <string.h>

#include "perf/perf_internal.h"

static uint64_t ld64(const uint8_t *p, size_t size, size_t off, bool swap)
{
	return off + 8 <= size ? tk_load_u64(p + off, swap) : 0;
}

static uint32_t ld32(const uint8_t *p, size_t size, size_t off, bool swap)
{
	return off + 4 <= size ? tk_load_u32(p + off, swap) : 0;
}

void tk_perf_attr_decode(const uint8_t *p, size_t size, bool swap, tk_perf_attr *a)
{
	memset(a, 0, sizeof *a);
	a->type = ld32(p, size, 0, swap);
	a->size = ld32(p, size, 4, swap);
	a->config = ld64(p, size, 8, swap);
	a->sample_period = ld64(p, size, 16, swap);
	a->sample_type = ld64(p, size, 24, swap);
	a->read_format = ld64(p, size, 32, swap);
	/* The bitfield word: a writer of the other byte order allocated the
	 * bits from the other end of each byte (perf's swap_bitfield()), so
	 * reverse the bits of every byte but keep the byte order. */
	uint8_t fb[8];
	memcpy(fb, p + 40, 8);
	if (swap)
		for (int i = 0; i < 8; i++)
			fb[i] = tk_reverse_bits8(fb[i]);
	a->flags = tk_load_le64(fb);
	a->wakeup_events = ld32(p, size, 48, swap);
	a->bp_type = ld32(p, size, 52, swap);
	a->config1 = ld64(p, size, 56, swap);
	a->config2 = ld64(p, size, 64, swap);
	a->branch_sample_type = ld64(p, size, 72, swap);
	a->sample_regs_user = ld64(p, size, 80, swap);
	a->sample_stack_user = ld32(p, size, 88, swap);
	a->clockid = (int32_t)ld32(p, size, 92, swap);
	a->sample_regs_intr = ld64(p, size, 96, swap);
	a->aux_watermark = ld32(p, size, 104, swap);
	a->sample_max_stack = size >= 112 ? tk_load_u16(p + 108, swap) : 0;
	a->aux_sample_size = ld32(p, size, 112, swap);
	a->sig_data = ld64(p, size, 120, swap);
	a->config3 = ld64(p, size, 128, swap);
}

tk_status tk_perf_map_id(tk_perf_file *f, uint64_t id, size_t attr_index, tk_error *err)
{
	f->last_id_attr = NULL; /* the lookup cache may be stale now */
	if (!tk_hashmap_put(&f->id_to_attr, id, attr_index + 1))
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory for attr ids");
	return TK_OK;
}

tk_perf_attr *tk_perf_add_attr(tk_perf_file *f, const tk_perf_attr *a, const uint8_t *ids,
			       size_t n_ids, bool ids_swap, uint64_t offset, tk_error *err)
{
	if (f->n_attrs >= 65536) {
		tk_error_set(err, TK_ERR_LIMIT, offset, "more than 65536 attrs");
		return NULL;
	}
	if (f->n_attrs == f->cap_attrs) {
		size_t cap = f->cap_attrs ? f->cap_attrs * 2 : 8;
		tk_perf_attr **na = realloc(f->attrs, cap * sizeof *na);
		if (!na) {
			tk_error_set(err, TK_ERR_NOMEM, offset, "out of memory for attrs");
			return NULL;
		}
		f->attrs = na;
		f->cap_attrs = cap;
	}
	tk_perf_attr *copy = tk_arena_alloc(&f->meta, sizeof *copy);
	uint64_t *idv = n_ids ? tk_arena_alloc(&f->meta, n_ids * 8) : NULL;
	if (!copy || (n_ids && !idv)) {
		tk_error_set(err, TK_ERR_NOMEM, offset, "out of memory for attrs");
		return NULL;
	}
	*copy = *a;
	copy->index = f->n_attrs;
	for (size_t i = 0; i < n_ids; i++) {
		idv[i] = tk_load_u64(ids + i * 8, ids_swap);
		if (tk_perf_map_id(f, idv[i], copy->index, err) != TK_OK)
			return NULL;
	}
	copy->ids = idv;
	copy->n_ids = n_ids;
	f->attrs[f->n_attrs++] = copy;
	tk_perf_update_id_pos(f);
	return copy;
}

/* Position of ID among a sample's leading u64s (evsel.c __evsel__calc_id_pos). */
static int calc_id_pos(uint64_t t)
{
	if (t & TK_PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(t & TK_PERF_SAMPLE_ID))
		return -1;
	int idx = 0;
	if (t & TK_PERF_SAMPLE_IP)
		idx++;
	if (t & TK_PERF_SAMPLE_TID)
		idx++;
	if (t & TK_PERF_SAMPLE_TIME)
		idx++;
	if (t & TK_PERF_SAMPLE_ADDR)
		idx++;
	return idx;
}

/* Position of ID counted from a trailer's end (evsel.c __evsel__calc_is_pos). */
static int calc_is_pos(uint64_t t)
{
	if (t & TK_PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(t & TK_PERF_SAMPLE_ID))
		return -1;
	int idx = 1;
	if (t & TK_PERF_SAMPLE_CPU)
		idx++;
	if (t & TK_PERF_SAMPLE_STREAM_ID)
		idx++;
	return idx;
}

void tk_perf_update_id_pos(tk_perf_file *f)
{
	f->id_pos = f->is_pos = -1;
	f->id_pos_agree = true;
	if (f->n_attrs == 0)
		return;
	f->id_pos = calc_id_pos(f->attrs[0]->sample_type);
	f->is_pos = calc_is_pos(f->attrs[0]->sample_type);
	for (size_t i = 1; i < f->n_attrs; i++) {
		uint64_t t = f->attrs[i]->sample_type;
		if (calc_id_pos(t) != f->id_pos || calc_is_pos(t) != f->is_pos)
			f->id_pos_agree = false;
	}
}
