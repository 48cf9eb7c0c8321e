/* Encodes model values into a CTF packet by walking the write plan next to
 * the value tree. No allocation: everything goes into the packet buffer.
 *
 * Values are checked against their plan as they are written (array lengths,
 * struct member counts, variant options, reused length and tag fields),
 * because a value that disagrees with the metadata would make every later
 * event of the stream unreadable. */
#include <string.h>

#include "ctf/writer/ctfw_internal.h"

static bool encode_node(ctfw_bits *b, const ctfw_node *n, const tk_value *v, const char **why);

/* Byte-aligned run of whole-byte integers; room already checked. */
static void put_int_run(ctfw_bits *b, const tk_value *items, size_t cnt, unsigned bytes)
{
	uint8_t *p = b->buf + (b->pos >> 3);
	bool swap = b->big_endian == tk_host_is_le();
	size_t i;
	switch (bytes) {
	case 8:
		for (i = 0; i < cnt; i++)
			tk_store_u64(p + 8 * i, items[i].v.u, swap);
		break;
	case 4:
		for (i = 0; i < cnt; i++)
			tk_store_u32(p + 4 * i, (uint32_t)items[i].v.u, swap);
		break;
	case 2:
		for (i = 0; i < cnt; i++)
			tk_store_u16(p + 2 * i, (uint16_t)items[i].v.u, swap);
		break;
	case 1:
		for (i = 0; i < cnt; i++)
			p[i] = (uint8_t)items[i].v.u;
		break;
	default: {
		ctfw_bits t = *b;
		for (i = 0; i < cnt; i++)
			ctfw_bits_put_slow(&t, items[i].v.u, bytes * 8);
		break;
	}
	}
	b->pos += (uint64_t)cnt * bytes * 8;
}

static bool tag_selects(const ctfw_node *n, const tk_value *tag, size_t index)
{
	uint64_t lo = n->opt_lo[index], hi = n->opt_hi[index];
	if (tag->cls && tag->cls->is_signed)
		return (int64_t)tag->v.u >= (int64_t)lo && (int64_t)tag->v.u <= (int64_t)hi;
	return tag->v.u >= lo && tag->v.u <= hi;
}

static bool encode_struct(ctfw_bits *b, const ctfw_node *n, const tk_value *v, const char **why)
{
	if (v->v.list.n != n->n_kids || (n->n_kids && !v->v.list.items)) {
		*why = "struct value does not have its class's members";
		return false;
	}
	if (!ctfw_bits_align(b, n->align))
		return true;
	const tk_value *items = v->v.list.items;
	for (size_t i = 0; i < n->n_kids; i++) {
		const ctfw_node *k = &n->kids[i];
		const tk_value *item = &items[i];
		if (k->skip)
			continue;
		if (k->int_bytes && (b->pos & 7) == 0 && (!item->cls || item->cls == k->cls) &&
		    b->pos + k->int_bytes * 8u <= b->cap_bits) {
			/* The common field: a byte-aligned integer, stored in place. */
			uint8_t *p = b->buf + (b->pos >> 3);
			bool swap = b->big_endian == tk_host_is_le();
			uint64_t x = item->v.u;
			switch (k->int_bytes) {
			case 8: tk_store_u64(p, x, swap); break;
			case 4: tk_store_u32(p, (uint32_t)x, swap); break;
			case 2: tk_store_u16(p, (uint16_t)x, swap); break;
			case 1: *p = (uint8_t)x; break;
			default: ctfw_bits_put_slow(b, x, k->int_bytes * 8u); continue;
			}
			b->pos += k->int_bytes * 8u;
			continue;
		}
		tk_type_kind kind = k->kind;
		if (kind == TK_TYPE_SEQUENCE || kind == TK_TYPE_BYTES) {
			uint64_t len = kind == TK_TYPE_BYTES ? item->v.str.len : item->v.list.n;
			if (k->ref == CTFW_REF_SYNTHETIC) {
				if (len > UINT32_MAX) {
					*why = "sequence longer than 2^32 - 1 elements";
					return false;
				}
				ctfw_bits_put(b, len, 32, 8);
			} else if (items[k->ref_index].v.u != len) {
				*why = "sequence length differs from its length field";
				return false;
			}
		} else if (kind == TK_TYPE_VARIANT) {
			size_t index = item->v.list.index;
			if (index >= k->n_kids) {
				*why = "variant value selects no option of its class";
				return false;
			}
			if (k->ref == CTFW_REF_SYNTHETIC)
				ctfw_bits_put(b, index, k->tag_bits, 8);
			else if (!tag_selects(k, &items[k->ref_index], index)) {
				*why = "variant tag field does not select the variant's option";
				return false;
			}
		}
		if (!encode_node(b, k, item, why))
			return false;
		if (b->overflow)
			return true;
	}
	return true;
}

static bool encode_node(ctfw_bits *b, const ctfw_node *n, const tk_value *v, const char **why)
{
	const tk_field_class *c = n->cls;
	/* A value of another kind would have its union read as the wrong
	 * member (a number taken for a string pointer). */
	if (v->cls && v->cls != c && v->cls->kind != n->kind) {
		*why = "value kind differs from its field class";
		return false;
	}
	switch (n->kind) {
	case TK_TYPE_INT: ctfw_bits_put(b, v->v.u, c->bits, n->align); return true;
	case TK_TYPE_FLOAT:
		if (c->bits == 32) {
			float f = (float)v->v.f;
			uint32_t u;
			memcpy(&u, &f, sizeof u);
			ctfw_bits_put(b, u, 32, 8);
		} else {
			uint64_t u;
			memcpy(&u, &v->v.f, sizeof u);
			ctfw_bits_put(b, u, 64, 8);
		}
		return true;
	case TK_TYPE_STRING: {
		size_t len = v->v.str.len;
		if (len && !v->v.str.ptr) {
			*why = "string value without bytes";
			return false;
		}
		/* CTF strings end at the first NUL. */
		const char *nul = len ? memchr(v->v.str.ptr, '\0', len) : NULL;
		if (nul)
			len = (size_t)(nul - v->v.str.ptr);
		ctfw_bits_put_bytes(b, v->v.str.ptr, len);
		ctfw_bits_put(b, 0, 8, 8);
		return true;
	}
	case TK_TYPE_BYTES:
		if (v->v.str.len && !v->v.str.ptr) {
			*why = "bytes value without bytes";
			return false;
		}
		ctfw_bits_put_bytes(b, v->v.str.ptr, v->v.str.len);
		return true;
	case TK_TYPE_ARRAY:
	case TK_TYPE_SEQUENCE: {
		size_t cnt = v->v.list.n;
		if (c->kind == TK_TYPE_ARRAY && cnt != c->length) {
			*why = "array value length differs from its class";
			return false;
		}
		if (cnt && !v->v.list.items) {
			*why = "array value without items";
			return false;
		}
		if (!ctfw_bits_align(b, n->align))
			return true;
		const tk_field_class *ec = n->kids->cls;
		if (ec->kind == TK_TYPE_INT && (ec->bits & 7) == 0 && (b->pos & 7) == 0) {
			/* Callchains and other int arrays: one bound check, plain stores. */
			unsigned bytes = ec->bits / 8;
			if ((uint64_t)cnt * ec->bits > b->cap_bits - b->pos) {
				b->overflow = true;
				return true;
			}
			put_int_run(b, v->v.list.items, cnt, bytes);
			return true;
		}
		for (size_t i = 0; i < cnt; i++) {
			if (!encode_node(b, n->kids, &v->v.list.items[i], why))
				return false;
			if (b->overflow)
				return true;
		}
		return true;
	}
	case TK_TYPE_STRUCT: return encode_struct(b, n, v, why);
	case TK_TYPE_VARIANT:
		if (v->v.list.index >= n->n_kids || !v->v.list.items) {
			*why = "variant value selects no option of its class";
			return false;
		}
		return encode_node(b, &n->kids[v->v.list.index], v->v.list.items, why);
	}
	*why = "value of unknown kind";
	return false;
}

bool ctfw_encode_scope(ctfw_bits *b, const ctfw_node *n, const tk_value *v, const char **why)
{
	if (!v) {
		*why = "event has no value for a scope its class declares";
		return false;
	}
	return encode_node(b, n, v, why);
}
