/* Decoding of a tracepoint sample's RAW payload into model values, driven
 * by the per-field plans built once by the format parser. Per event: no
 * malloc, no string work; strings and bytes point into raw, int arrays are
 * the only thing taken from the caller's arena. Every location read from
 * the payload (__data_loc / __rel_loc) is checked against raw_size before
 * it is used. Error offsets are relative to raw[0]: the caller adds the
 * payload's file offset. */
#include <string.h>

#include "base/bytes.h"
#include "perf/perf_tracing_internal.h"

static uint64_t load_uint(const uint8_t *p, unsigned size, bool swap)
{
	switch (size) {
	case 1: return p[0];
	case 2: return tk_load_u16(p, swap);
	case 4: return tk_load_u32(p, swap);
	default: return tk_load_u64(p, swap);
	}
}

static void decode_int(tk_value *v, const uint8_t *p, unsigned size, bool is_signed, bool swap)
{
	uint64_t u = load_uint(p, size, swap);
	if (is_signed && size < 8) {
		unsigned shift = 64 - size * 8;
		v->v.i = (int64_t)(u << shift) >> shift;
	} else {
		v->v.u = u;
	}
}

static void set_string(tk_value *v, const uint8_t *p, size_t n)
{
	const uint8_t *nul = memchr(p, 0, n);
	v->v.str.ptr = (const char *)p;
	v->v.str.len = nul ? (size_t)(nul - p) : n;
}

static tk_status decode_ints(tk_value *v, const uint8_t *p, size_t n, const tp_plan *pl, bool swap,
			     void *arena, tk_error *err)
{
	tk_value *items = NULL;
	if (n && !arena)
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
				    "tk_perf_tp_decode: an arena is needed for array fields");
	if (n) {
		items = tk_arena_alloc(arena, n * sizeof *items);
		if (!items)
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
					    "out of memory for a %zu-element tracepoint array", n);
		for (size_t k = 0; k < n; k++) {
			items[k].cls = pl->elem;
			decode_int(&items[k], p + k * pl->elem_size, pl->elem_size, pl->is_signed,
				   swap);
		}
	}
	v->v.list.items = items;
	v->v.list.n = n;
	v->v.list.index = 0;
	return TK_OK;
}

/* Where a __data_loc / __rel_loc field's data lies in raw. The word is
 * u32 (len << 16 | offset); __rel_loc offsets count from the end of the
 * field. A 2-byte word (old kernels) holds only the offset: the data then
 * runs to the end of raw. The range is checked against raw_size. */
static tk_status dyn_range(const tk_perf_tp_format *fmt, size_t i, const tp_plan *pl,
			   const uint8_t *raw, uint32_t raw_size, bool swap, uint64_t *off_out,
			   uint64_t *len_out, tk_error *err)
{
	uint32_t word = (uint32_t)load_uint(raw + pl->offset, pl->size, swap);
	uint64_t off = word & 0xffff;
	uint64_t len = pl->size == 4 ? word >> 16 : 0;
	if (pl->relative)
		off += (uint64_t)pl->offset + pl->size;
	if (pl->size == 2 && off <= raw_size)
		len = raw_size - off;
	if (!tk_range_ok(off, len, raw_size))
		return tk_error_set(err, TK_ERR_FORMAT, pl->offset,
				    "tracepoint %s: field %s points to %llu bytes at offset "
				    "%llu, past the end of the %u-byte raw data",
				    fmt->name, fmt->fields[i].name, (unsigned long long)len,
				    (unsigned long long)off, raw_size);
	*off_out = off;
	*len_out = len;
	return TK_OK;
}

static bool is_dyn(const tp_plan *pl)
{
	return pl->kind == TP_PLAN_DYN_STRING || pl->kind == TP_PLAN_DYN_SEQ ||
	       pl->kind == TP_PLAN_DYN_BYTES;
}

static tk_status fixed_error(const tk_perf_tp_format *fmt, uint32_t raw_size, tk_error *err)
{
	const tp_format_impl *impl = (const tp_format_impl *)fmt;
	return tk_error_set(err, TK_ERR_TRUNCATED, 0,
			    "tracepoint %s: raw data of %u bytes is shorter than its %u-byte "
			    "fixed fields",
			    fmt->name, raw_size, impl->min_raw_size);
}

tk_status tk_perf_tp_decode(const tk_perf_tracing *tr, const tk_perf_tp_format *fmt,
			    const uint8_t *raw, uint32_t raw_size, void *arena, tk_value *values,
			    tk_error *err)
{
	const tp_format_impl *impl = (const tp_format_impl *)fmt;
	if (!tr || !fmt || impl->owner != tr || !values || (!raw && raw_size))
		return tk_error_set(
		    err, TK_ERR_USAGE, TK_NO_OFFSET,
		    "tk_perf_tp_decode: format does not belong to this tracing data");
	if (raw_size < impl->min_raw_size)
		return fixed_error(fmt, raw_size, err);
	const bool swap = tr->swap;
	for (size_t i = 0; i < fmt->n_fields; i++) {
		const tp_plan *pl = &impl->plans[i];
		tk_value *v = &values[i];
		const uint8_t *p = raw + pl->offset; /* in bounds: min_raw_size */
		v->cls = pl->cls;
		switch ((tp_plan_kind)pl->kind) {
		case TP_PLAN_INT: decode_int(v, p, pl->elem_size, pl->is_signed, swap); continue;
		case TP_PLAN_BYTES:
			v->v.str.ptr = (const char *)p;
			v->v.str.len = pl->size;
			continue;
		case TP_PLAN_STRING: set_string(v, p, pl->size); continue;
		case TP_PLAN_ARRAY: {
			tk_status st = decode_ints(v, p, pl->count, pl, swap, arena, err);
			if (st != TK_OK)
				return st;
			continue;
		}
		case TP_PLAN_DYN_STRING:
		case TP_PLAN_DYN_SEQ:
		case TP_PLAN_DYN_BYTES: break;
		}
		uint64_t off, len;
		tk_status st = dyn_range(fmt, i, pl, raw, raw_size, swap, &off, &len, err);
		if (st != TK_OK)
			return st;
		const uint8_t *d = raw + off;
		if (pl->kind == TP_PLAN_DYN_STRING) {
			set_string(v, d, (size_t)len);
		} else if (pl->kind == TP_PLAN_DYN_SEQ) {
			/* a partial trailing element is dropped, never read */
			st = decode_ints(v, d, (size_t)len / pl->elem_size, pl, swap, arena, err);
			if (st != TK_OK)
				return st;
		} else {
			v->v.str.ptr = (const char *)d;
			v->v.str.len = (size_t)len;
		}
	}
	return TK_OK;
}

tk_status tp_validate_raw(const tk_perf_tracing *tr, const tk_perf_tp_format *fmt,
			  const uint8_t *raw, uint32_t raw_size, tk_error *err)
{
	const tp_format_impl *impl = (const tp_format_impl *)fmt;
	if (raw_size < impl->min_raw_size)
		return fixed_error(fmt, raw_size, err);
	for (size_t i = 0; i < fmt->n_fields; i++) {
		uint64_t off, len;
		if (!is_dyn(&impl->plans[i]))
			continue;
		tk_status st =
		    dyn_range(fmt, i, &impl->plans[i], raw, raw_size, tr->swap, &off, &len, err);
		if (st != TK_OK)
			return st;
	}
	return TK_OK;
}
