/* Metadata carried by records (pipe mode, perf inject output): HEADER_ATTR,
 * HEADER_FEATURE, TRACING_DATA, BUILD_ID, ID_INDEX, EVENT_UPDATE; and the
 * record -> attr mapping perf does in evlist__event2evsel(). */
#include <string.h>

#include "perf/perf_internal.h"

#define EVENT_UPDATE_NAME 2

static tk_status apply_header_attr(tk_perf_file *f, const tk_perf_record *r, tk_error *err)
{
	if (r->size < 8 + TK_PERF_ATTR_MIN_SIZE)
		return tk_error_set(err, TK_ERR_FORMAT, r->offset,
				    "HEADER_ATTR record of %u bytes cannot hold an attr", r->size);
	uint32_t asz = tk_load_u32(r->data + 12, f->swap);
	if (asz == 0)
		asz = TK_PERF_ATTR_MIN_SIZE;
	if (asz < TK_PERF_ATTR_MIN_SIZE || asz > r->size - 8)
		return tk_error_set(
		    err, TK_ERR_FORMAT, r->offset + 12,
		    "HEADER_ATTR attr size %u does not fit a %u-byte record (minimum %d)", asz,
		    r->size, TK_PERF_ATTR_MIN_SIZE);
	tk_perf_attr a;
	tk_perf_attr_decode(r->data + 8, asz, f->swap, &a);
	size_t n_ids = (r->size - 8 - asz) / 8;
	if (!tk_perf_add_attr(f, &a, r->data + 8 + asz, n_ids, f->swap, r->offset, err))
		return err ? err->status : TK_ERR_NOMEM;
	tk_perf_name_attrs(f, false);
	return TK_OK;
}

/* ID_INDEX entries are {id, idx, cpu, tid} where idx is the event's per-CPU
 * fd index, not an attr index: perf (perf_event__process_id_index) only
 * annotates ids the attrs already own. So the id -> attr mapping never comes
 * from here; an id no attr owns is warned about once. */
/* ID_INDEX {id, idx, cpu, tid}: idx is the mmap (cpu/thread) index, not
 * an attr index (perf's perf_event__process_id_index only annotates ids
 * it already knows), so it adds no id -> attr mapping. It is only
 * checked here, so a malformed one is reported where it is. */
static tk_status apply_id_index(tk_perf_file *f, const tk_perf_record *r, tk_error *err)
{
	tk_perf_event e;
	tk_status st = tk_perf_parse_event(f, r, &e, err);
	if (st != TK_OK)
		return st;
	for (uint64_t i = 0; i < e.u.id_index.nr; i++) {
		uint64_t id = tk_load_u64(e.u.id_index.entries + i * 32, f->swap);
		if (!tk_hashmap_get(&f->id_to_attr, id)) {
			tk_perf_warn(f, "ID_INDEX at 0x%llx names id %llu that no attr owns",
				     (unsigned long long)r->offset, (unsigned long long)id);
			break;
		}
	}
	return TK_OK;
}

static void apply_event_update(tk_perf_file *f, const tk_perf_record *r)
{
	if (r->size <= 24 || tk_load_u64(r->data + 8, f->swap) != EVENT_UPDATE_NAME)
		return;
	uint64_t *idx = tk_hashmap_get(&f->id_to_attr, tk_load_u64(r->data + 16, f->swap));
	if (!idx)
		return;
	tk_perf_attr *a = f->attrs[*idx - 1];
	const char *s = (const char *)r->data + 24;
	const char *n = tk_arena_strndup(&f->meta, s, strnlen(s, r->size - 24));
	if (n)
		a->name = n;
}

tk_status tk_perf_apply_meta(tk_perf_file *f, tk_perf_record *r, tk_error *err)
{
	switch (r->type) {
	case TK_PERF_RECORD_HEADER_ATTR:
		if (!f->hdr.pipe_mode)
			return TK_OK; /* file mode: the attrs section is authoritative */
		return apply_header_attr(f, r, err);
	case TK_PERF_RECORD_HEADER_FEATURE:
		if (r->size < 16)
			return tk_error_set(err, TK_ERR_FORMAT, r->offset,
					    "FEATURE record of %u bytes", r->size);
		if (f->hdr.pipe_mode) {
			uint64_t id = tk_load_u64(r->data + 8, f->swap);
			if (id < TK_PERF_FEAT_MAX) {
				tk_status st = tk_perf_feature_decode(
				    f, (unsigned)id, r->data + 16, r->size - 16, UINT64_MAX, err);
				if (st != TK_OK)
					return st;
				tk_perf_name_attrs(f, false);
			}
		}
		return TK_OK;
	case TK_PERF_RECORD_HEADER_TRACING_DATA:
		if (r->extra && !f->tracing) {
			tk_error terr;
			tk_error_clear(&terr);
			if (tk_perf_tracing_parse(r->extra, (size_t)r->extra_size,
						  r->offset + r->size, &f->tracing,
						  &terr) != TK_OK) {
				f->tracing = NULL;
				tk_perf_warn(f, "tracing data at 0x%llx: %s",
					     (unsigned long long)r->offset, terr.message);
			}
			tk_perf_name_attrs(f, false);
		}
		return TK_OK;
	case TK_PERF_RECORD_HEADER_BUILD_ID:
		if (f->hdr.pipe_mode && !tk_perf_build_id_record(f, r->data, r->size))
			tk_perf_warn(f, "bad BUILD_ID record at 0x%llx",
				     (unsigned long long)r->offset);
		return TK_OK;
	case TK_PERF_RECORD_ID_INDEX: return apply_id_index(f, r, err);
	case TK_PERF_RECORD_EVENT_UPDATE: apply_event_update(f, r); return TK_OK;
	default: return TK_OK;
	}
}

/* The attr owning id, or NULL: the recent-lookup cache, then the map. */
static const tk_perf_attr *lookup_id(tk_perf_file *f, uint64_t id)
{
	if (!f->last_id_attr)
		f->id_cache_n = f->id_cache_next = 0; /* the mapping changed */
	for (unsigned i = 0; i < f->id_cache_n; i++)
		if (f->id_cache[i].id == id)
			return f->id_cache[i].attr;
	uint64_t *idx = tk_hashmap_get(&f->id_to_attr, id);
	if (!idx)
		return NULL;
	tk_perf_attr *a = f->attrs[*idx - 1];
	unsigned slot = f->id_cache_next;
	f->id_cache_next = (slot + 1) % PERF_ID_CACHE_SIZE;
	if (f->id_cache_n < PERF_ID_CACHE_SIZE)
		f->id_cache_n++;
	f->id_cache[slot].id = id;
	f->id_cache[slot].attr = a;
	f->last_id = id;
	f->last_id_attr = a;
	return a;
}

/* evlist__event2evsel(): one attr, or no sample_id_all on a non-sample,
 * or id 0 (synthesized) -> the first attr; else the id's attr. */
const tk_perf_attr *tk_perf_find_attr(tk_perf_file *f, const tk_perf_record *r)
{
	if (r->type >= TK_PERF_RECORD_HEADER_ATTR || f->n_attrs == 0)
		return NULL;
	tk_perf_attr *first = f->attrs[0];
	if (f->n_attrs == 1)
		return first;
	if (r->type != TK_PERF_RECORD_SAMPLE &&
	    !tk_perf_attr_flag(first, TK_PERF_ATTR_SAMPLE_ID_ALL))
		return first;
	if (!f->id_pos_agree && !f->warned_id_pos) {
		/* perf refuses such files ("non matching sample_type") */
		f->warned_id_pos = true;
		tk_perf_warn(
		    f, "attrs place the sample id differently; using the first attr's layout");
	}
	uint64_t id;
	uint32_t n = (r->size - 8) / 8;
	if (r->type == TK_PERF_RECORD_SAMPLE) {
		if (f->id_pos < 0 || (uint32_t)f->id_pos >= n)
			return first;
		id = tk_load_u64(r->data + 8 + 8 * (uint32_t)f->id_pos, f->swap);
	} else {
		if (f->is_pos < 0 || (uint32_t)f->is_pos > n)
			return first;
		id = tk_load_u64(r->data + 8 + 8 * (n - (uint32_t)f->is_pos), f->swap);
	}
	if (!id)
		return first;
	const tk_perf_attr *a = lookup_id(f, id);
	if (a)
		return a;
	if (!f->warned_no_attr) {
		f->warned_no_attr = true;
		tk_perf_warn(f,
			     "record at 0x%llx has id %llu that no attr owns; using the first attr",
			     (unsigned long long)r->offset, (unsigned long long)id);
	}
	return first;
}

void tk_perf_classify(tk_perf_file *f, tk_perf_record *r)
{
	const tk_perf_attr *a = tk_perf_find_attr(f, r);
	if (a) {
		tk_perf_classify_with(f, r, a);
		return;
	}
	r->attr = NULL;
	memset(&r->sid, 0, sizeof r->sid);
	r->has_time = false;
}

void tk_perf_classify_with(tk_perf_file *f, tk_perf_record *r, const tk_perf_attr *a)
{
	r->attr = a;
	bool ok; /* the parsers clear sid first */
	if (r->type == TK_PERF_RECORD_SAMPLE) {
		if (!a->name)
			tk_perf_name_attrs(f, true);
		ok = tk_perf_parse_sample_head(r->data, r->size, a->sample_type, f->swap, &r->sid);
	} else if (tk_perf_attr_flag(a, TK_PERF_ATTR_SAMPLE_ID_ALL)) {
		ok = tk_perf_parse_trailer(r->data, r->size, a->sample_type, f->swap, &r->sid);
	} else {
		ok = false;
	}
	if (!ok)
		memset(&r->sid, 0, sizeof r->sid);
	r->has_time = (r->sid.present & TK_PERF_SAMPLE_TIME) != 0;
}
