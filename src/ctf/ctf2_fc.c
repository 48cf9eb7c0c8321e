/* CTF 2 field classes (CTF2-SPEC-2.0 section "Field classes", and the
 * 2023 draft's names) -> ctf_fc trees, the same IR the TSDL parser builds,
 * so resolution, plans and decoding are shared. How each class maps:
 *
 *   fixed-length bit array / unsigned / signed integer -> CTF_FC_INT
 *     (CTF_FC_ENUM when it has mappings; the draft's *-enumeration names too)
 *   fixed-length bit map -> INT, is_bitmap, flags as maps over bit indexes
 *   fixed-length boolean -> INT, is_bool
 *   fixed-length floating point number (32, 64 bits) -> CTF_FC_FLOAT
 *   null-terminated string -> CTF_FC_STRING
 *   static/dynamic-length string -> ARRAY/SEQUENCE of 8-bit text
 *   static/dynamic-length blob -> ARRAY/SEQUENCE of bytes, is_blob
 *   structure, static/dynamic-length array, variant -> the same kinds;
 *     lengths and selectors keep their field location (fc->loc), variants
 *     their selector ranges (ranges_given)
 *
 * Roles set ctf_fc.meaning (and the clock) directly; member names carry
 * no meaning in CTF 2. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf/ctf2_build.h"

#define MAX_FC_DEPTH 64

tk_status ctf2_fail(ctf2_builder *b, const ctf2_json *at, tk_status st, const char *fmt, ...)
{
	char msg[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return tk_error_set(b->err, st, at ? at->offset : TK_NO_OFFSET,
			    "metadata: fragment %zu (%s): %s", b->frag,
			    b->frag_type ? b->frag_type : "?", msg);
}

static tk_status nomem(ctf2_builder *b)
{
	return tk_error_set(b->err, TK_ERR_NOMEM, TK_NO_OFFSET, "metadata: out of memory");
}

bool ctf2_get_u64(const ctf2_json *j, uint64_t *out)
{
	if (!j || j->kind != CTF2_JSON_NUMBER || !j->is_int || j->neg)
		return false;
	*out = j->u;
	return true;
}

bool ctf2_get_i64(const ctf2_json *j, int64_t *out)
{
	if (!j || j->kind != CTF2_JSON_NUMBER || !j->is_int)
		return false;
	if (j->neg) {
		*out = j->u == (uint64_t)1 << 63 ? INT64_MIN : -(int64_t)j->u;
		return true;
	}
	if (j->u > INT64_MAX)
		return false;
	*out = (int64_t)j->u;
	return true;
}

static const char *str_of(const ctf2_json *j)
{
	return j && j->kind == CTF2_JSON_STRING ? j->s : NULL;
}

static ctf_fc *new_fc(ctf2_builder *b, ctf_fc_type type)
{
	ctf_fc *fc = tk_arena_calloc(b->a, 1, sizeof *fc);
	if (fc) {
		fc->type = type;
		fc->clock = -1;
		fc->base = 10;
		fc->align = 1;
	}
	return fc;
}

/* Deep copy: each use of an alias is its own tree (locations resolve
 * where it is used, roles may differ per use). */
static ctf_fc *copy_fc(ctf2_builder *b, const ctf_fc *src, unsigned depth)
{
	if (depth > MAX_FC_DEPTH * 2 || b->copies_left == 0)
		return NULL;
	b->copies_left--;
	ctf_fc *fc = tk_arena_alloc(b->a, sizeof *fc);
	if (!fc)
		return NULL;
	*fc = *src;
	if (src->n_members) {
		fc->members = tk_arena_alloc(b->a, src->n_members * sizeof *fc->members);
		if (!fc->members)
			return NULL;
		for (size_t i = 0; i < src->n_members; i++) {
			fc->members[i] = src->members[i];
			if (!(fc->members[i].fc = copy_fc(b, src->members[i].fc, depth + 1)))
				return NULL;
		}
	}
	if (src->elem && !(fc->elem = copy_fc(b, src->elem, depth + 1)))
		return NULL;
	return fc;
}

static tk_status get_align(ctf2_builder *b, const ctf2_json *o, const char *key, unsigned dflt,
			   unsigned *out)
{
	const ctf2_json *j = ctf2_json_get(o, key);
	uint64_t v;
	if (!j) {
		*out = dflt;
		return TK_OK;
	}
	if (!ctf2_get_u64(j, &v) || v == 0 || (v & (v - 1)) || v > (1u << 20))
		return ctf2_fail(b, j, TK_ERR_FORMAT, "'%s' must be a power of two", key);
	*out = (unsigned)v;
	return TK_OK;
}

static tk_status get_length(ctf2_builder *b, const ctf2_json *o, uint64_t max, uint64_t *out)
{
	const ctf2_json *j = ctf2_json_get(o, "length");
	if (!j)
		return ctf2_fail(b, o, TK_ERR_FORMAT, "missing 'length'");
	if (!ctf2_get_u64(j, out) || *out > max)
		return ctf2_fail(b, j, TK_ERR_FORMAT, "bad 'length' (at most %llu here)",
				 (unsigned long long)max);
	return TK_OK;
}

/* Roles (CTF2-SPEC-2.0 "roles"): the scopes where each may appear, and
 * what it means to the decoder. */
static const struct {
	const char *name;
	ctf_meaning m;
	bool uint;       /* needs an unsigned integer (else: a 16-byte blob) */
	unsigned scopes; /* 1 << ctf_scope */
} roles_table[] = {
    {"packet-magic-number", CTF_MEANING_MAGIC, true, 1u << CTF_SCOPE_PACKET_HEADER},
    {"metadata-stream-uuid", CTF_MEANING_UUID, false, 1u << CTF_SCOPE_PACKET_HEADER},
    {"data-stream-class-id", CTF_MEANING_STREAM_ID, true, 1u << CTF_SCOPE_PACKET_HEADER},
    {"data-stream-id", CTF_MEANING_STREAM_INSTANCE_ID, true, 1u << CTF_SCOPE_PACKET_HEADER},
    {"packet-total-length", CTF_MEANING_PACKET_SIZE, true, 1u << CTF_SCOPE_PACKET_CONTEXT},
    {"packet-content-length", CTF_MEANING_CONTENT_SIZE, true, 1u << CTF_SCOPE_PACKET_CONTEXT},
    {"default-clock-timestamp", CTF_MEANING_NONE, true,
     1u << CTF_SCOPE_PACKET_CONTEXT | 1u << CTF_SCOPE_EVENT_HEADER},
    {"packet-end-default-clock-timestamp", CTF_MEANING_TS_END, true,
     1u << CTF_SCOPE_PACKET_CONTEXT},
    {"discarded-event-record-counter-snapshot", CTF_MEANING_EVENTS_DISCARDED, true,
     1u << CTF_SCOPE_PACKET_CONTEXT},
    {"packet-sequence-number", CTF_MEANING_PACKET_SEQ_NUM, true, 1u << CTF_SCOPE_PACKET_CONTEXT},
    {"event-record-class-id", CTF_MEANING_EVENT_ID, true, 1u << CTF_SCOPE_EVENT_HEADER},
};
#define N_ROLES (sizeof roles_table / sizeof roles_table[0])

/* Applies fc->ctf2_roles in the scope being built (an alias's roles wait
 * until the alias is used: its scope and default clock are known then). */
static tk_status apply_roles(ctf2_builder *b, const ctf2_json *at, ctf_fc *fc)
{
	for (unsigned k = 0; k < N_ROLES; k++) {
		if (!(fc->ctf2_roles & (1u << k)))
			continue;
		const char *r = roles_table[k].name;
		if (!(roles_table[k].scopes & (1u << b->scope)))
			return ctf2_fail(b, at, TK_ERR_FORMAT,
					 "role '%s' is not allowed in this scope", r);
		ctf_meaning m = roles_table[k].m;
		bool clock = !strcmp(r, "default-clock-timestamp") ||
			     !strcmp(r, "packet-end-default-clock-timestamp");
		if (clock) {
			if (b->def_clock < 0)
				return ctf2_fail(b, at, TK_ERR_FORMAT,
						 "role '%s' in a data stream class without a "
						 "default clock class",
						 r);
			fc->clock = b->def_clock;
			/* in the packet context, the default clock timestamp is
			 * the packet's beginning time */
			if (m == CTF_MEANING_NONE && b->scope == CTF_SCOPE_PACKET_CONTEXT)
				m = CTF_MEANING_TS_BEGIN;
		}
		if (m != CTF_MEANING_NONE && fc->meaning == CTF_MEANING_NONE)
			fc->meaning = m;
	}
	return TK_OK;
}

static tk_status apply_roles_tree(ctf2_builder *b, const ctf2_json *at, ctf_fc *fc, unsigned depth)
{
	tk_status st;
	if (depth > MAX_FC_DEPTH * 2)
		return TK_OK;
	if (fc->ctf2_roles && (st = apply_roles(b, at, fc)) != TK_OK)
		return st;
	for (size_t i = 0; i < fc->n_members; i++)
		if ((st = apply_roles_tree(b, at, fc->members[i].fc, depth + 1)) != TK_OK)
			return st;
	return fc->elem ? apply_roles_tree(b, at, (ctf_fc *)fc->elem, depth + 1) : TK_OK;
}

static tk_status set_roles(ctf2_builder *b, const ctf2_json *o, ctf_fc *fc)
{
	const ctf2_json *roles = ctf2_json_get(o, "roles");
	if (!roles)
		return TK_OK;
	if (roles->kind != CTF2_JSON_ARRAY)
		return ctf2_fail(b, roles, TK_ERR_FORMAT, "'roles' must be an array");
	for (size_t i = 0; i < roles->n; i++) {
		const char *r = str_of(roles->items[i]);
		unsigned k;
		for (k = 0; r && k < N_ROLES; k++)
			if (!strcmp(roles_table[k].name, r))
				break;
		if (!r || k == N_ROLES)
			return ctf2_fail(b, roles->items[i], TK_ERR_FORMAT, "unknown role");
		bool is_uint = (fc->type == CTF_FC_INT || fc->type == CTF_FC_ENUM) &&
			       !fc->is_signed && !fc->is_bool && !fc->is_bitmap;
		if (roles_table[k].uint
			? !is_uint
			: !(fc->type == CTF_FC_ARRAY && fc->is_blob && fc->length == 16))
			return ctf2_fail(b, roles->items[i], TK_ERR_FORMAT,
					 "role '%s' on a field class that cannot have it", r);
		fc->ctf2_roles |= (uint16_t)(1u << k);
	}
	return b->in_alias ? TK_OK : apply_roles(b, roles, fc);
}

static tk_status byte_order(ctf2_builder *b, const ctf2_json *o, ctf_fc *fc)
{
	const ctf2_json *j = ctf2_json_get(o, "byte-order");
	const char *s = str_of(j);
	if (!j)
		return ctf2_fail(b, o, TK_ERR_FORMAT, "missing 'byte-order'");
	if (s && (!strcmp(s, "little-endian") || !strcmp(s, "le")))
		fc->byte_order = 1;
	else if (s && (!strcmp(s, "big-endian") || !strcmp(s, "be")))
		fc->byte_order = 2;
	else
		return ctf2_fail(b, j, TK_ERR_FORMAT, "bad 'byte-order'");
	/* bits of a byte are read from the least significant one for little
	 * endian and from the most significant one for big endian: the
	 * default bit orders; the other order is not decoded */
	const char *bo = str_of(ctf2_json_get(o, "bit-order"));
	if (bo) {
		bool ftl = !strcmp(bo, "first-to-last");
		if (!ftl && strcmp(bo, "last-to-first"))
			return ctf2_fail(b, ctf2_json_get(o, "bit-order"), TK_ERR_FORMAT,
					 "bad 'bit-order'");
		if (ftl != (fc->byte_order == 1))
			return ctf2_fail(b, ctf2_json_get(o, "bit-order"), TK_ERR_UNSUPPORTED,
					 "bit order '%s' with byte order %s is not supported", bo,
					 fc->byte_order == 1 ? "little-endian" : "big-endian");
	} else if (ctf2_json_get(o, "bit-order")) {
		return ctf2_fail(b, ctf2_json_get(o, "bit-order"), TK_ERR_FORMAT,
				 "bad 'bit-order'");
	}
	return TK_OK;
}

/* mappings (integers) or flags (bit maps): label -> [[lo, hi], ...] */
static tk_status ranges_map(ctf2_builder *b, const ctf2_json *m, ctf_fc *fc, bool flags)
{
	if (m->kind != CTF2_JSON_OBJECT)
		return ctf2_fail(b, m, TK_ERR_FORMAT, "'%s' must be an object",
				 flags ? "flags" : "mappings");
	size_t n = 0;
	for (size_t i = 0; i < m->n; i++) {
		if (m->items[i]->kind != CTF2_JSON_ARRAY || m->items[i]->n == 0)
			return ctf2_fail(b, m->items[i], TK_ERR_FORMAT,
					 "a mapping must be a non-empty array of ranges");
		n += m->items[i]->n;
	}
	fc->maps = tk_arena_alloc(b->a, (n + 1) * sizeof *fc->maps);
	if (!fc->maps)
		return nomem(b);
	fc->maps_unique = true;
	for (size_t i = 0; i < m->n; i++) {
		const ctf2_json *rs = m->items[i];
		if (rs->n > 1)
			fc->maps_unique = false;
		for (size_t k = 0; k < rs->n; k++) {
			const ctf2_json *r = rs->items[k];
			ctf_mapping *mp = &fc->maps[fc->n_maps];
			bool ok = r->kind == CTF2_JSON_ARRAY && r->n == 2;
			if (ok && fc->is_signed && !flags) {
				ok = ctf2_get_i64(r->items[0], &mp->lo) &&
				     ctf2_get_i64(r->items[1], &mp->hi) && mp->lo <= mp->hi;
			} else if (ok) {
				uint64_t lo = 0, hi = 0;
				ok = ctf2_get_u64(r->items[0], &lo) &&
				     ctf2_get_u64(r->items[1], &hi) && lo <= hi &&
				     (!flags || hi < fc->size);
				mp->lo = (int64_t)lo;
				mp->hi = (int64_t)hi;
			}
			if (!ok)
				return ctf2_fail(b, r, TK_ERR_FORMAT,
						 flags ? "bad flag range (bit indexes lo <= hi < "
							 "length)"
						       : "bad mapping range");
			mp->label = m->keys[i];
			fc->n_maps++;
		}
	}
	return TK_OK;
}

static tk_status fixed_int(ctf2_builder *b, const ctf2_json *o, const char *type, ctf_fc **out)
{
	bool is_signed = strstr(type, "signed-") && !strstr(type, "unsigned-");
	ctf_fc *fc = new_fc(b, CTF_FC_INT);
	if (!fc)
		return nomem(b);
	fc->is_signed = is_signed;
	fc->is_bool = !strcmp(type, "fixed-length-boolean");
	fc->is_bitmap = !strcmp(type, "fixed-length-bit-map");
	uint64_t len;
	tk_status st;
	if ((st = get_length(b, o, 64, &len)) != TK_OK)
		return st;
	if (len == 0)
		return ctf2_fail(b, ctf2_json_get(o, "length"), TK_ERR_FORMAT, "length 0");
	fc->size = (unsigned)len;
	if ((st = byte_order(b, o, fc)) != TK_OK ||
	    (st = get_align(b, o, "alignment", 1, &fc->align)) != TK_OK)
		return st;
	if (!strcmp(type, "fixed-length-bit-array") || fc->is_bitmap)
		fc->base = 16; /* babeltrace 2.1 shows bit arrays in hexadecimal */
	const ctf2_json *base = ctf2_json_get(o, "preferred-display-base");
	if (base) {
		uint64_t v;
		if (!ctf2_get_u64(base, &v) || (v != 2 && v != 8 && v != 10 && v != 16))
			return ctf2_fail(b, base, TK_ERR_FORMAT, "bad 'preferred-display-base'");
		fc->base = (uint8_t)v;
	}
	const ctf2_json *maps = ctf2_json_get(o, fc->is_bitmap ? "flags" : "mappings");
	if (fc->is_bitmap && !maps)
		return ctf2_fail(b, o, TK_ERR_FORMAT, "bit map without 'flags'");
	if (maps && (st = ranges_map(b, maps, fc, fc->is_bitmap)) != TK_OK)
		return st;
	if (fc->n_maps && !fc->is_bitmap)
		fc->type = CTF_FC_ENUM;
	if ((st = set_roles(b, o, fc)) != TK_OK)
		return st;
	*out = fc;
	return TK_OK;
}

/* variable-length (LEB128) integers: byte-aligned, any length */
static tk_status var_int(ctf2_builder *b, const ctf2_json *o, const char *type, ctf_fc **out)
{
	ctf_fc *fc = new_fc(b, CTF_FC_INT);
	if (!fc)
		return nomem(b);
	fc->is_signed = strstr(type, "-signed-") != NULL;
	fc->varint = fc->is_signed ? 2 : 1;
	fc->size = 64; /* values that fit; longer ones are kept as bytes */
	fc->align = 8;
	fc->byte_order = 1;
	tk_status st;
	const ctf2_json *base = ctf2_json_get(o, "preferred-display-base");
	if (base) {
		uint64_t v;
		if (!ctf2_get_u64(base, &v) || (v != 2 && v != 8 && v != 10 && v != 16))
			return ctf2_fail(b, base, TK_ERR_FORMAT, "bad 'preferred-display-base'");
		fc->base = (uint8_t)v;
	}
	const ctf2_json *maps = ctf2_json_get(o, "mappings");
	if (maps && (st = ranges_map(b, maps, fc, false)) != TK_OK)
		return st;
	if (fc->n_maps)
		fc->type = CTF_FC_ENUM;
	if ((st = set_roles(b, o, fc)) != TK_OK)
		return st;
	*out = fc;
	return TK_OK;
}

static tk_status fixed_float(ctf2_builder *b, const ctf2_json *o, ctf_fc **out)
{
	ctf_fc *fc = new_fc(b, CTF_FC_FLOAT);
	if (!fc)
		return nomem(b);
	uint64_t len;
	tk_status st;
	if ((st = get_length(b, o, 128, &len)) != TK_OK)
		return st;
	if (len != 16 && len != 32 && len != 64 && len != 128)
		return ctf2_fail(b, ctf2_json_get(o, "length"), TK_ERR_FORMAT,
				 "a floating point number has 16, 32, 64 or 128 bits, not %llu",
				 (unsigned long long)len);
	/* IEEE 754 binary16/32/64/128 (16 and 128 are decoded to doubles) */
	static const unsigned exp_dig[] = {5, 8, 11, 15};
	unsigned k = len == 16 ? 0 : len == 32 ? 1 : len == 64 ? 2 : 3;
	fc->size = (unsigned)len;
	fc->exp_dig = exp_dig[k];
	fc->mant_dig = (unsigned)len - exp_dig[k];
	if ((st = byte_order(b, o, fc)) != TK_OK ||
	    (st = get_align(b, o, "alignment", 1, &fc->align)) != TK_OK)
		return st;
	*out = fc;
	return TK_OK;
}

static tk_status encoding(ctf2_builder *b, const ctf2_json *o, ctf_fc *fc)
{
	const ctf2_json *j = ctf2_json_get(o, "encoding");
	const char *s = str_of(j);
	if (!j || (s && !strcmp(s, "utf-8")))
		return TK_OK;
	static const struct {
		const char *name;
		uint8_t unit;
		bool be;
	} encs[] = {
	    {"utf-16be", 2, true},
	    {"utf-16le", 2, false},
	    {"utf-32be", 4, true},
	    {"utf-32le", 4, false},
	};
	for (size_t i = 0; s && i < sizeof encs / sizeof encs[0]; i++)
		if (!strcmp(s, encs[i].name)) {
			fc->enc_unit = encs[i].unit;
			fc->enc_be = encs[i].be;
			return TK_OK;
		}
	return ctf2_fail(b, j, TK_ERR_FORMAT, "bad string 'encoding'");
}

static tk_status location(ctf2_builder *b, const ctf2_json *j, const ctf2_loc **out)
{
	static const struct {
		const char *name;
		ctf_scope scope;
	} origins[] = {
	    {"packet-header", CTF_SCOPE_PACKET_HEADER},
	    {"packet-context", CTF_SCOPE_PACKET_CONTEXT},
	    {"event-record-header", CTF_SCOPE_EVENT_HEADER},
	    {"event-record-common-context", CTF_SCOPE_EVENT_COMMON_CONTEXT},
	    {"event-record-specific-context", CTF_SCOPE_EVENT_CONTEXT},
	    {"event-record-payload", CTF_SCOPE_EVENT_PAYLOAD},
	};
	if (!j)
		return ctf2_fail(b, NULL, TK_ERR_FORMAT, "missing field location");
	ctf2_loc *loc = tk_arena_calloc(b->a, 1, sizeof *loc);
	if (!loc)
		return nomem(b);
	const ctf2_json *origin, *path;
	size_t first = 0;
	if (j->kind == CTF2_JSON_ARRAY) {
		/* the 2023 draft: [origin, name, ...] */
		origin = j->n ? j->items[0] : NULL;
		path = j;
		first = 1;
	} else if (j->kind == CTF2_JSON_OBJECT) {
		origin = ctf2_json_get(j, "origin");
		path = ctf2_json_get(j, "path");
	} else {
		return ctf2_fail(b, j, TK_ERR_FORMAT, "bad field location");
	}
	if (!path || path->kind != CTF2_JSON_ARRAY || path->n <= first ||
	    path->n - first > CTF_MAX_PATH)
		return ctf2_fail(b, j, TK_ERR_FORMAT, "bad field location path (1 to %d elements)",
				 CTF_MAX_PATH);
	loc->relative = true;
	if (origin) {
		const char *s = str_of(origin);
		size_t k;
		for (k = 0; s && k < sizeof origins / sizeof origins[0]; k++)
			if (!strcmp(s, origins[k].name))
				break;
		if (!s || k == sizeof origins / sizeof origins[0])
			return ctf2_fail(b, origin, TK_ERR_FORMAT, "bad field location origin");
		loc->relative = false;
		loc->origin = origins[k].scope;
	}
	loc->n = path->n - first;
	loc->names = tk_arena_calloc(b->a, loc->n, sizeof *loc->names);
	if (!loc->names)
		return nomem(b);
	char text[256];
	size_t tl = 0;
	text[0] = 0;
	for (size_t i = 0; i < loc->n; i++) {
		const ctf2_json *e = path->items[first + i];
		if (e->kind == CTF2_JSON_NULL && loc->relative) {
			loc->names[i] = NULL; /* the parent structure */
		} else if (e->kind == CTF2_JSON_STRING) {
			loc->names[i] = e->s;
		} else {
			return ctf2_fail(b, e, TK_ERR_FORMAT, "bad field location path element");
		}
		int w = snprintf(text + tl, sizeof text - tl, "%s%s", i ? "/" : "",
				 loc->names[i] ? loc->names[i] : "..");
		if (w > 0 && (size_t)w < sizeof text - tl)
			tl += (size_t)w;
	}
	if (!(loc->text = tk_arena_strdup(b->a, text)))
		return nomem(b);
	*out = loc;
	return TK_OK;
}

static ctf_fc *byte_elem(ctf2_builder *b, bool text)
{
	ctf_fc *e = new_fc(b, CTF_FC_INT);
	if (e) {
		e->size = 8;
		e->align = 8;
		e->byte_order = 1;
		e->encoded = text;
		e->base = text ? 10 : 16;
	}
	return e;
}

/* static/dynamic-length string or blob: an array of bytes */
static tk_status byte_seq(ctf2_builder *b, const ctf2_json *o, bool dynamic, bool blob,
			  ctf_fc **out)
{
	ctf_fc *fc = new_fc(b, dynamic ? CTF_FC_SEQUENCE : CTF_FC_ARRAY);
	ctf_fc *e = byte_elem(b, !blob);
	if (!fc || !e)
		return nomem(b);
	tk_status st;
	if (!blob && (st = encoding(b, o, fc)) != TK_OK)
		return st;
	fc->elem = e;
	fc->align = 8;
	fc->is_blob = blob;
	fc->elem_is_text = !blob;
	if (dynamic) {
		if ((st = location(b, ctf2_json_get(o, "length-field-location"), &fc->loc)) !=
		    TK_OK)
			return st;
	} else if ((st = get_length(b, o, (uint64_t)1 << 40, &fc->length)) != TK_OK) {
		return st;
	}
	if (blob) {
		const ctf2_json *mt = ctf2_json_get(o, "media-type");
		if (mt && mt->kind != CTF2_JSON_STRING)
			return ctf2_fail(b, mt, TK_ERR_FORMAT, "bad 'media-type'");
		if ((st = set_roles(b, o, fc)) != TK_OK)
			return st;
	}
	*out = fc;
	return TK_OK;
}

static tk_status add_member(ctf2_builder *b, const ctf2_json *at, ctf_fc *agg, const char *name,
			    ctf_fc *fc, bool unique)
{
	if (agg->n_members >= CTF2_MAX_MEMBERS)
		return ctf2_fail(b, at, TK_ERR_LIMIT, "more than %u members", CTF2_MAX_MEMBERS);
	if (unique)
		for (size_t i = 0; i < agg->n_members; i++)
			if (!strcmp(agg->members[i].name, name))
				return ctf2_fail(b, at, TK_ERR_FORMAT, "duplicate member '%s'",
						 name);
	ctf_member *m = &agg->members[agg->n_members++];
	m->name = name;
	m->orig_name = name;
	m->name_len = strlen(name);
	m->fc = fc;
	if (agg->type == CTF_FC_STRUCT && fc->align > agg->align)
		agg->align = fc->align;
	return TK_OK;
}

static tk_status structure(ctf2_builder *b, const ctf2_json *o, unsigned depth, ctf_fc **out)
{
	ctf_fc *fc = new_fc(b, CTF_FC_STRUCT);
	if (!fc)
		return nomem(b);
	tk_status st;
	if ((st = get_align(b, o, "minimum-alignment", 1, &fc->align)) != TK_OK)
		return st;
	const ctf2_json *ms = ctf2_json_get(o, "member-classes");
	if (ms && ms->kind != CTF2_JSON_ARRAY)
		return ctf2_fail(b, ms, TK_ERR_FORMAT, "'member-classes' must be an array");
	if (ms && ms->n) {
		fc->members = tk_arena_alloc(b->a, ms->n * sizeof *fc->members);
		if (!fc->members)
			return nomem(b);
		for (size_t i = 0; i < ms->n; i++) {
			const ctf2_json *m = ms->items[i];
			const char *name = str_of(ctf2_json_get(m, "name"));
			if (!name)
				return ctf2_fail(b, m, TK_ERR_FORMAT, "member without a name");
			ctf_fc *mfc;
			if ((st = ctf2_field_class(b, ctf2_json_get(m, "field-class"), depth + 1,
						   &mfc)) != TK_OK ||
			    (st = add_member(b, m, fc, name, mfc, true)) != TK_OK)
				return st;
		}
	}
	*out = fc;
	return TK_OK;
}

static tk_status array(ctf2_builder *b, const ctf2_json *o, bool dynamic, unsigned depth,
		       ctf_fc **out)
{
	ctf_fc *fc = new_fc(b, dynamic ? CTF_FC_SEQUENCE : CTF_FC_ARRAY);
	if (!fc)
		return nomem(b);
	tk_status st;
	ctf_fc *e;
	if ((st = get_align(b, o, "minimum-alignment", 1, &fc->align)) != TK_OK ||
	    (st = ctf2_field_class(b, ctf2_json_get(o, "element-field-class"), depth + 1, &e)) !=
		TK_OK)
		return st;
	fc->elem = e;
	if (e->align > fc->align)
		fc->align = e->align;
	if (dynamic)
		st = location(b, ctf2_json_get(o, "length-field-location"), &fc->loc);
	else
		st = get_length(b, o, UINT32_MAX, &fc->length);
	if (st != TK_OK)
		return st;
	*out = fc;
	return TK_OK;
}

static tk_status variant(ctf2_builder *b, const ctf2_json *o, unsigned depth, ctf_fc **out)
{
	ctf_fc *fc = new_fc(b, CTF_FC_VARIANT);
	if (!fc)
		return nomem(b);
	tk_status st;
	if ((st = location(b, ctf2_json_get(o, "selector-field-location"), &fc->loc)) != TK_OK)
		return st;
	const ctf2_json *opts = ctf2_json_get(o, "options");
	if (!opts || opts->kind != CTF2_JSON_ARRAY || opts->n == 0)
		return ctf2_fail(b, o, TK_ERR_FORMAT, "variant without options");
	size_t n_ranges = 0;
	for (size_t i = 0; i < opts->n; i++) {
		const ctf2_json *r = ctf2_json_get(opts->items[i], "selector-field-ranges");
		if (!r || r->kind != CTF2_JSON_ARRAY || r->n == 0)
			return ctf2_fail(b, opts->items[i], TK_ERR_FORMAT,
					 "variant option without 'selector-field-ranges'");
		n_ranges += r->n;
	}
	fc->members = tk_arena_alloc(b->a, opts->n * sizeof *fc->members);
	fc->ranges = tk_arena_alloc(b->a, (n_ranges + 1) * sizeof *fc->ranges);
	if (!fc->members || !fc->ranges)
		return nomem(b);
	fc->ranges_given = true;
	for (size_t i = 0; i < opts->n; i++) {
		const ctf2_json *opt = opts->items[i];
		const char *name = str_of(ctf2_json_get(opt, "name"));
		ctf_fc *ofc;
		if ((st = ctf2_field_class(b, ctf2_json_get(opt, "field-class"), depth + 1,
					   &ofc)) != TK_OK ||
		    (st = add_member(b, opt, fc, name ? name : "", ofc, false)) != TK_OK)
			return st;
		const ctf2_json *rs = ctf2_json_get(opt, "selector-field-ranges");
		for (size_t k = 0; k < rs->n; k++) {
			const ctf2_json *r = rs->items[k];
			ctf_var_range *vr = &fc->ranges[fc->n_ranges];
			bool ok = r->kind == CTF2_JSON_ARRAY && r->n == 2;
			/* the selector's signedness is known after resolution: keep
			 * the bits, the decoder compares them either way */
			uint64_t lo = 0, hi = 0;
			int64_t slo = 0, shi = 0;
			if (ok && ctf2_get_u64(r->items[0], &lo) && ctf2_get_u64(r->items[1], &hi))
				ok = lo <= hi;
			else if (ok && ctf2_get_i64(r->items[0], &slo) &&
				 ctf2_get_i64(r->items[1], &shi) && slo <= shi)
				lo = (uint64_t)slo, hi = (uint64_t)shi;
			else
				ok = false;
			if (!ok)
				return ctf2_fail(b, r, TK_ERR_FORMAT, "bad selector field range");
			vr->lo = (int64_t)lo;
			vr->hi = (int64_t)hi;
			vr->option = i;
			fc->n_ranges++;
		}
	}
	*out = fc;
	return TK_OK;
}

/* An optional is a variant of two options: 0 an empty structure (absent,
 * also every selector value no range holds), 1 the field. A boolean
 * selector holds it when not zero. */
static tk_status optional(ctf2_builder *b, const ctf2_json *o, unsigned depth, ctf_fc **out)
{
	ctf_fc *fc = new_fc(b, CTF_FC_VARIANT);
	ctf_fc *none = new_fc(b, CTF_FC_STRUCT);
	if (!fc || !none)
		return nomem(b);
	tk_status st;
	ctf_fc *some;
	if ((st = location(b, ctf2_json_get(o, "selector-field-location"), &fc->loc)) != TK_OK ||
	    (st = ctf2_field_class(b, ctf2_json_get(o, "field-class"), depth + 1, &some)) != TK_OK)
		return st;
	fc->is_optional = true;
	fc->ranges_given = true;
	fc->bool_selector = !ctf2_json_get(o, "selector-field-ranges");
	fc->members = tk_arena_alloc(b->a, 2 * sizeof *fc->members);
	if (!fc->members)
		return nomem(b);
	if ((st = add_member(b, o, fc, "", none, false)) != TK_OK ||
	    (st = add_member(b, o, fc, "", some, false)) != TK_OK)
		return st;
	const ctf2_json *rs = ctf2_json_get(o, "selector-field-ranges");
	size_t n = rs ? rs->n : 1;
	if (rs && (rs->kind != CTF2_JSON_ARRAY || rs->n == 0))
		return ctf2_fail(b, rs, TK_ERR_FORMAT, "bad 'selector-field-ranges'");
	fc->ranges = tk_arena_alloc(b->a, n * sizeof *fc->ranges);
	if (!fc->ranges)
		return nomem(b);
	for (size_t k = 0; k < n; k++) {
		ctf_var_range *vr = &fc->ranges[fc->n_ranges++];
		vr->option = 1;
		if (!rs) { /* boolean selector: any bit set */
			vr->lo = 1;
			vr->hi = -1; /* UINT64_MAX as bits */
			continue;
		}
		const ctf2_json *r = rs->items[k];
		uint64_t lo = 0, hi = 0;
		int64_t slo = 0, shi = 0;
		if (r->kind == CTF2_JSON_ARRAY && r->n == 2 && ctf2_get_u64(r->items[0], &lo) &&
		    ctf2_get_u64(r->items[1], &hi) && lo <= hi) {
			vr->lo = (int64_t)lo;
			vr->hi = (int64_t)hi;
		} else if (r->kind == CTF2_JSON_ARRAY && r->n == 2 &&
			   ctf2_get_i64(r->items[0], &slo) && ctf2_get_i64(r->items[1], &shi) &&
			   slo <= shi) {
			vr->lo = slo;
			vr->hi = shi;
		} else {
			return ctf2_fail(b, r, TK_ERR_FORMAT, "bad selector field range");
		}
	}
	*out = fc;
	return TK_OK;
}

tk_status ctf2_field_class(ctf2_builder *b, const ctf2_json *j, unsigned depth, ctf_fc **out)
{
	if (!j)
		return ctf2_fail(b, NULL, TK_ERR_FORMAT, "missing field class");
	if (depth > MAX_FC_DEPTH)
		return ctf2_fail(b, j, TK_ERR_LIMIT, "field classes nested too deeply");
	if (j->kind == CTF2_JSON_STRING) {
		for (size_t i = 0; i < b->n_aliases; i++)
			if (!strcmp(b->aliases[i].name, j->s)) {
				if (!(*out = copy_fc(b, b->aliases[i].fc, 0)))
					return ctf2_fail(b, j, TK_ERR_LIMIT,
							 "too many field class alias uses");
				return b->in_alias ? TK_OK : apply_roles_tree(b, j, *out, 0);
			}
		return ctf2_fail(b, j, TK_ERR_FORMAT, "unknown field class alias '%s'", j->s);
	}
	const char *type = str_of(ctf2_json_get(j, "type"));
	if (j->kind != CTF2_JSON_OBJECT || !type)
		return ctf2_fail(b, j, TK_ERR_FORMAT,
				 "a field class must be an object with a type");
	static const char *const ints[] = {
	    "fixed-length-bit-array",
	    "fixed-length-bit-map",
	    "fixed-length-boolean",
	    "fixed-length-unsigned-integer",
	    "fixed-length-signed-integer",
	    /* the 2023 draft: integers with mappings had their own names */
	    "fixed-length-unsigned-enumeration",
	    "fixed-length-signed-enumeration",
	};
	for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
		if (!strcmp(type, ints[i]))
			return fixed_int(b, j, type, out);
	if (!strcmp(type, "fixed-length-floating-point-number"))
		return fixed_float(b, j, out);
	if (!strcmp(type, "null-terminated-string")) {
		if (!(*out = new_fc(b, CTF_FC_STRING)))
			return nomem(b);
		(*out)->align = 8;
		return encoding(b, j, *out);
	}
	if (!strcmp(type, "static-length-string"))
		return byte_seq(b, j, false, false, out);
	if (!strcmp(type, "dynamic-length-string"))
		return byte_seq(b, j, true, false, out);
	if (!strcmp(type, "static-length-blob"))
		return byte_seq(b, j, false, true, out);
	if (!strcmp(type, "dynamic-length-blob"))
		return byte_seq(b, j, true, true, out);
	if (!strcmp(type, "structure"))
		return structure(b, j, depth, out);
	if (!strcmp(type, "static-length-array"))
		return array(b, j, false, depth, out);
	if (!strcmp(type, "dynamic-length-array"))
		return array(b, j, true, depth, out);
	if (!strcmp(type, "variant"))
		return variant(b, j, depth, out);
	if (!strcmp(type, "variable-length-unsigned-integer") ||
	    !strcmp(type, "variable-length-signed-integer") ||
	    !strcmp(type, "variable-length-unsigned-enumeration") ||
	    !strcmp(type, "variable-length-signed-enumeration"))
		return var_int(b, j, type, out);
	if (!strcmp(type, "optional"))
		return optional(b, j, depth, out);
	return ctf2_fail(b, ctf2_json_get(j, "type"), TK_ERR_FORMAT,
			 "unknown field class type '%s'", type);
}

tk_status ctf2_scope_fc(ctf2_builder *b, const ctf2_json *j, ctf_scope scope, ctf_fc **out)
{
	*out = NULL;
	if (!j)
		return TK_OK;
	b->scope = scope;
	tk_status st = ctf2_field_class(b, j, 0, out);
	if (st != TK_OK)
		return st;
	if ((*out)->type != CTF_FC_STRUCT)
		return ctf2_fail(b, j, TK_ERR_FORMAT, "a scope field class must be a structure");
	return TK_OK;
}
