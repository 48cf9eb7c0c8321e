/* Field decoder: a small interpreter over the resolved field classes, with
 * specialised readers for byte-aligned integers. */
#include "ctf/ctf_decode.h"

#include <string.h>

#include "base/bytes.h"

static tk_status short_read(ctf_decoder *d, const char *what, uint64_t bits, tk_error *err)
{
	return tk_error_set(
	    err, TK_ERR_FORMAT, d->file_off + d->pos / 8,
	    "cannot decode %s: %s of %llu bits goes past the end of the packet content "
	    "(bit %llu of %llu)",
	    d->what, what, (unsigned long long)bits, (unsigned long long)d->pos,
	    (unsigned long long)d->limit_bits);
}

static inline bool align_to(ctf_decoder *d, unsigned align)
{
	uint64_t np = (d->pos + align - 1) & ~(uint64_t)(align - 1);
	if (np > d->limit_bits)
		return false;
	d->pos = np;
	return true;
}

/* Reads `size` bits at d->pos (no bounds check; caller checked). */
static inline uint64_t read_bits(const ctf_decoder *d, unsigned size, bool le)
{
	uint64_t pos = d->pos;
	const uint8_t *p = d->buf + (pos >> 3);
	unsigned sh = (unsigned)(pos & 7);
	if (sh == 0) {
		/* byte-aligned fast paths */
		switch (size) {
		case 8: return p[0];
		case 16: return le ? tk_load_le16(p) : tk_load_be16(p);
		case 32: return le ? tk_load_le32(p) : tk_load_be32(p);
		case 64: return le ? tk_load_le64(p) : tk_load_be64(p);
		default: break;
		}
	}
	unsigned nbytes = (sh + size + 7) / 8;
	unsigned __int128 acc = 0;
	if (le) {
		for (unsigned i = nbytes; i-- > 0;)
			acc = (acc << 8) | p[i];
		acc >>= sh;
	} else {
		for (unsigned i = 0; i < nbytes; i++)
			acc = (acc << 8) | p[i];
		acc >>= nbytes * 8 - sh - size;
	}
	uint64_t mask = size == 64 ? UINT64_MAX : (((uint64_t)1 << size) - 1);
	return (uint64_t)acc & mask;
}

static inline void update_clock(ctf_decoder *d, uint64_t v, unsigned size)
{
	if (size == 64) {
		d->clock = v;
	} else {
		uint64_t mask = ((uint64_t)1 << size) - 1;
		if (v < (d->clock & mask))
			d->clock += mask + 1;
		d->clock = (d->clock & ~mask) | v;
	}
	d->clock_set = true;
}

static tk_status decode(ctf_decoder *d, const ctf_fc *fc, tk_value *out, tk_error *err);

static inline void *dalloc(ctf_decoder *d, size_t size)
{
	size = (size + 15) & ~(size_t)15;
	if (d->fast && d->fast_cap - d->fast_used >= size) {
		void *p = d->fast + d->fast_used;
		d->fast_used += size;
		return p;
	}
	return tk_arena_alloc(d->arena, size);
}

static inline __attribute__((always_inline)) tk_status decode_int(ctf_decoder *d, const ctf_fc *fc,
								  tk_value *out, tk_error *err)
{
	uint64_t pos = d->pos;
	unsigned size = fc->size;
	if (fc->align > 1)
		pos = (pos + fc->align - 1) & ~(uint64_t)(fc->align - 1);
	if (__builtin_expect(pos > d->limit_bits || d->limit_bits - pos < size, 0))
		return short_read(d, "integer", size, err);
	d->pos = pos;
	uint64_t v = read_bits(d, size, fc->little_endian);
	d->pos = pos + size;
	if (fc->is_signed && size < 64 && (v >> (size - 1)) & 1)
		v |= ~(uint64_t)0 << size;
	out->v.u = v;
	if (__builtin_expect(fc->clock >= 0 || fc->meaning != CTF_MEANING_NONE, 0)) {
		/* timestamp_end says when the packet ends, not when its events happen */
		if (fc->clock >= 0 && fc->meaning != CTF_MEANING_TS_END)
			update_clock(d, v, size);
		if (fc->meaning != CTF_MEANING_NONE) {
			d->meaning_val[fc->meaning] = v;
			d->meaning_set[fc->meaning] = true;
		}
	}
	return TK_OK;
}

static tk_status decode_float(ctf_decoder *d, const ctf_fc *fc, tk_value *out, tk_error *err)
{
	if (!align_to(d, fc->align) || d->limit_bits - d->pos < fc->size)
		return short_read(d, "floating point number", fc->size, err);
	uint64_t v = read_bits(d, fc->size, fc->little_endian);
	d->pos += fc->size;
	if (fc->size == 32) {
		uint32_t w = (uint32_t)v;
		float f;
		memcpy(&f, &w, 4);
		out->v.f = f;
	} else {
		double f;
		memcpy(&f, &v, 8);
		out->v.f = f;
	}
	return TK_OK;
}

static tk_status decode_string(ctf_decoder *d, tk_value *out, tk_error *err)
{
	if (!align_to(d, 8))
		return short_read(d, "string", 8, err);
	const uint8_t *start = d->buf + d->pos / 8;
	size_t avail = (size_t)((d->limit_bits - d->pos) / 8);
	const uint8_t *nul = memchr(start, 0, avail);
	if (!nul)
		return tk_error_set(
		    err, TK_ERR_FORMAT, d->file_off + d->pos / 8,
		    "cannot decode %s: string not terminated before the end of the packet content",
		    d->what);
	out->v.str.ptr = (const char *)start;
	out->v.str.len = (size_t)(nul - start);
	d->pos += ((uint64_t)(nul - start) + 1) * 8;
	return TK_OK;
}

static tk_status ref_value(ctf_decoder *d, const ctf_field_ref *ref, const tk_value **out,
			   tk_error *err)
{
	const tk_value *v;
	if (ref->relative) {
		if (ref->up >= d->depth)
			goto fail;
		v = d->stack[d->depth - 1 - ref->up];
	} else {
		v = d->roots[ref->scope];
	}
	for (unsigned i = 0; i < ref->n; i++) {
		if (!v || !v->cls || v->cls->kind != TK_TYPE_STRUCT || ref->idx[i] >= v->v.list.n)
			goto fail;
		v = &v->v.list.items[ref->idx[i]];
	}
	if (!v)
		goto fail;
	*out = v;
	return TK_OK;
fail:
	return tk_error_set(
	    err, TK_ERR_FORMAT, d->file_off + d->pos / 8,
	    "cannot decode %s: the field a length or tag refers to is not available", d->what);
}

/* Text arrays (8-bit encoded ints) become one string value, cut at the
 * first NUL like babeltrace prints them. */
static tk_status decode_text_array(ctf_decoder *d, const ctf_fc *fc, uint64_t n, tk_value *out,
				   tk_error *err)
{
	const ctf_fc *e = fc->elem;
	if (!align_to(d, e->align) || (d->limit_bits - d->pos) / 8 < n)
		return short_read(d, "text array", n * 8, err);
	if ((d->pos & 7) == 0) {
		const char *s = (const char *)d->buf + d->pos / 8;
		const char *nul = memchr(s, 0, (size_t)n);
		out->v.str.ptr = s;
		out->v.str.len = nul ? (size_t)(nul - s) : (size_t)n;
		d->pos += n * 8;
		return TK_OK;
	}
	char *s = dalloc(d, (size_t)n + 1);
	if (!s)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	size_t len = (size_t)n;
	for (uint64_t i = 0; i < n; i++) {
		if (!align_to(d, e->align) || d->limit_bits - d->pos < 8)
			return short_read(d, "text array", 8, err);
		s[i] = (char)read_bits(d, 8, e->little_endian);
		d->pos += 8;
		if (s[i] == 0 && len == n)
			len = (size_t)i;
	}
	out->v.str.ptr = s;
	out->v.str.len = len;
	return TK_OK;
}

static tk_status decode_list(ctf_decoder *d, const ctf_fc *fc, uint64_t n, tk_value *out,
			     tk_error *err)
{
	out->v.list.n = 0;
	out->v.list.index = 0;
	if (fc->elem_is_text)
		return decode_text_array(d, fc, n, out, err);
	/* bound the length by what the packet can hold before allocating */
	uint64_t remain = d->limit_bits - d->pos;
	uint64_t minb = fc->elem->min_bits;
	if ((minb && n > remain / minb) || (!minb && n > ((uint64_t)1 << 16)))
		return tk_error_set(
		    err, TK_ERR_FORMAT, d->file_off + d->pos / 8,
		    "cannot decode %s: array length %llu does not fit in the packet", d->what,
		    (unsigned long long)n);
	tk_value *items = n ? dalloc(d, (size_t)n * sizeof *items) : NULL;
	if (n && !items)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	if (!align_to(d, fc->align))
		return short_read(d, "array", 0, err);
	for (uint64_t i = 0; i < n; i++) {
		tk_status st = decode(d, fc->elem, &items[i], err);
		if (st != TK_OK)
			return st;
	}
	out->v.list.items = items;
	out->v.list.n = (size_t)n;
	return TK_OK;
}

static tk_status decode(ctf_decoder *d, const ctf_fc *fc, tk_value *out, tk_error *err)
{
	tk_status st;
	out->cls = fc->model;
	switch (fc->type) {
	case CTF_FC_INT:
	case CTF_FC_ENUM: return decode_int(d, fc, out, err);
	case CTF_FC_FLOAT: return decode_float(d, fc, out, err);
	case CTF_FC_STRING: return decode_string(d, out, err);
	case CTF_FC_STRUCT: {
		if (!align_to(d, fc->align))
			return short_read(d, "struct", 0, err);
		if (d->depth >= CTF_DECODE_MAX_DEPTH)
			return tk_error_set(err, TK_ERR_LIMIT, d->file_off + d->pos / 8,
					    "cannot decode %s: nested too deeply", d->what);
		tk_value *items = fc->n_members ? dalloc(d, fc->n_members * sizeof *items) : NULL;
		if (fc->n_members && !items)
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		out->v.list.items = items;
		out->v.list.n = 0;
		out->v.list.index = 0;
		d->stack[d->depth++] = out;
		for (size_t i = 0; i < fc->n_members; i++) {
			const ctf_fc *m = fc->members[i].fc;
			/* integers inline: most fields are */
			if (m->type == CTF_FC_INT) {
				items[i].cls = m->model;
				st = decode_int(d, m, &items[i], err);
			} else {
				st = decode(d, m, &items[i], err);
			}
			if (st != TK_OK) {
				d->depth--;
				return st;
			}
			out->v.list.n = i + 1;
		}
		d->depth--;
		return TK_OK;
	}
	case CTF_FC_VARIANT: {
		const tk_value *tag;
		if ((st = ref_value(d, &fc->ref, &tag, err)) != TK_OK)
			return st;
		const ctf_fc *tfc = fc->ref.target;
		size_t opt = SIZE_MAX;
		for (size_t i = 0; i < fc->n_ranges; i++) {
			const ctf_var_range *r = &fc->ranges[i];
			bool in = tfc->is_signed ? (tag->v.i >= r->lo && tag->v.i <= r->hi)
						 : (tag->v.u >= (uint64_t)r->lo &&
						    tag->v.u <= (uint64_t)r->hi);
			if (in) {
				opt = r->option;
				break;
			}
		}
		if (opt == SIZE_MAX)
			return tk_error_set(
			    err, TK_ERR_FORMAT, d->file_off + d->pos / 8,
			    "cannot decode %s: no variant option for tag value %lld", d->what,
			    (long long)tag->v.i);
		tk_value *item = dalloc(d, sizeof *item);
		if (!item)
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		if ((st = decode(d, fc->members[opt].fc, item, err)) != TK_OK)
			return st;
		out->v.list.items = item;
		out->v.list.n = 1;
		out->v.list.index = opt;
		return TK_OK;
	}
	case CTF_FC_ARRAY: return decode_list(d, fc, fc->length, out, err);
	case CTF_FC_SEQUENCE: {
		const tk_value *len;
		if ((st = ref_value(d, &fc->ref, &len, err)) != TK_OK)
			return st;
		if (fc->ref.target->is_signed && len->v.i < 0)
			return tk_error_set(err, TK_ERR_FORMAT, d->file_off + d->pos / 8,
					    "cannot decode %s: negative sequence length %lld",
					    d->what, (long long)len->v.i);
		return decode_list(d, fc, len->v.u, out, err);
	}
	}
	return TK_OK;
}

tk_status ctf_decode_scope(ctf_decoder *d, const ctf_fc *fc, ctf_scope scope, tk_value **out,
			   tk_error *err)
{
	/* the root value and its members in one allocation */
	size_t n = fc->type == CTF_FC_STRUCT ? fc->n_members : 0;
	tk_value *v = dalloc(d, (n + 1) * sizeof *v);
	if (!v)
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	d->roots[scope] = v;
	d->depth = 0;
	*out = v;
	v->cls = fc->model;
	if (fc->type != CTF_FC_STRUCT)
		return decode(d, fc, v, err);
	if (fc->align > 1) {
		uint64_t np = (d->pos + fc->align - 1) & ~(uint64_t)(fc->align - 1);
		if (np > d->limit_bits)
			return short_read(d, "struct", 0, err);
		d->pos = np;
	}
	tk_value *items = v + 1;
	v->v.list.items = items;
	v->v.list.n = 0;
	v->v.list.index = 0;
	d->stack[0] = v;
	d->depth = 1;
	for (size_t i = 0; i < n; i++) {
		const ctf_fc *m = fc->members[i].fc;
		tk_status st;
		items[i].cls = m->model;
		if (m->type == CTF_FC_INT)
			st = decode_int(d, m, &items[i], err);
		else if (m->type == CTF_FC_STRING)
			st = decode_string(d, &items[i], err);
		else
			st = decode(d, m, &items[i], err);
		if (st != TK_OK) {
			d->depth = 0;
			return st;
		}
		v->v.list.n = i + 1;
	}
	d->depth = 0;
	return TK_OK;
}

uint64_t ctf_fc_min_bits(ctf_fc *fc, unsigned depth)
{
	if (!fc || depth > 256)
		return 0;
	uint64_t b = 0;
	switch (fc->type) {
	case CTF_FC_INT:
	case CTF_FC_ENUM:
	case CTF_FC_FLOAT: b = fc->size; break;
	case CTF_FC_STRING: b = 8; break;
	case CTF_FC_STRUCT:
		for (size_t i = 0; i < fc->n_members; i++) {
			uint64_t m = ctf_fc_min_bits(fc->members[i].fc, depth + 1);
			b = b + m < b ? UINT64_MAX : b + m;
		}
		break;
	case CTF_FC_VARIANT:
		b = UINT64_MAX;
		for (size_t i = 0; i < fc->n_members; i++) {
			uint64_t m = ctf_fc_min_bits(fc->members[i].fc, depth + 1);
			if (m < b)
				b = m;
		}
		if (fc->n_members == 0)
			b = 0;
		break;
	case CTF_FC_ARRAY: {
		uint64_t e = ctf_fc_min_bits((ctf_fc *)fc->elem, depth + 1);
		b = e && fc->length > UINT64_MAX / e ? UINT64_MAX : e * fc->length;
		break;
	}
	case CTF_FC_SEQUENCE:
		ctf_fc_min_bits((ctf_fc *)fc->elem, depth + 1);
		b = 0;
		break;
	}
	fc->min_bits = b;
	return b;
}
