/* Plan interpreter: one switch loop over a scope's instructions, no
 * recursion. Runs of fixed-size fields are checked once by their RUN
 * instruction; the reads they cover go straight to the bytes. Arrays with
 * compound elements and variants push a frame on an explicit stack.
 * Error messages and offsets are those of the tree decoder it replaced
 * (run_fail replays a failed run field by field to find them). */
#include "ctf/ctf_decode.h"

#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "ctf/ctf_decode_inline.h"

static tk_status short_read(ctf_decoder *d, const char *what, uint64_t bits, tk_error *err)
{
	return tk_error_set(
	    err, TK_ERR_FORMAT, d->file_off + d->pos / 8,
	    "cannot decode %s: %s of %llu bits goes past the end of the packet content "
	    "(bit %llu of %llu)",
	    d->what, what, (unsigned long long)bits, (unsigned long long)d->pos,
	    (unsigned long long)d->limit_bits);
}

static tk_status nomem(tk_error *err)
{
	return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
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

static tk_value *alloc_values(ctf_decoder *d, uint64_t n)
{
	if (n > SIZE_MAX / sizeof(tk_value))
		return NULL;
	return dalloc(d, (size_t)n * sizeof(tk_value));
}

/* A failed RUN: replays its fields one by one from the position before
 * the run, with the checks the tree decoder made, to report the same
 * field, offset and message. */
static tk_status run_fail(ctf_decoder *d, const ctf_op *run, tk_error *err)
{
	uint64_t pos = d->pos, limit = d->limit_bits;
	if (run->kind == CTF_OP_RUN_STRUCT) {
		uint64_t np = align_up(pos, run->align);
		if (np > limit)
			return short_read(d, "struct", 0, err);
		pos = d->pos = np;
	}
	for (uint32_t i = 1; i <= run->k; i++) {
		const ctf_op *op = run + i;
		uint64_t np = align_up(pos, op->align);
		switch ((ctf_op_kind)op->kind) {
		case CTF_OP_STRUCT:
			if (np > limit)
				return short_read(d, "struct", 0, err);
			pos = d->pos = np;
			break;
		case CTF_OP_FLOAT:
			if (np > limit)
				return short_read(d, "floating point number", op->size, err);
			d->pos = np;
			if (limit - np < op->size)
				return short_read(d, "floating point number", op->size, err);
			pos = d->pos = np + op->size;
			break;
		case CTF_OP_TEXT_FIXED:
			if (np > limit)
				return short_read(d, "text array", op->n * 8, err);
			d->pos = np;
			if ((limit - np) / 8 < op->n)
				return short_read(d, "text array", op->n * 8, err);
			pos = d->pos = np + op->n * 8;
			break;
		default: /* integers */
			if (np > limit || limit - np < op->size)
				return short_read(d, "integer", op->size, err);
			pos = d->pos = np + op->size;
			break;
		}
	}
	return short_read(d, "field run", run->n, err);
}

/* The value a sequence length or variant tag refers to. */
static tk_status ref_value(ctf_decoder *d, const ctf_frame *f, const ctf_plan_ref *r,
			   const tk_value **out, tk_error *err)
{
	const tk_value *v = NULL;
	if (r->available) {
		if (r->root)
			v = d->roots[r->scope] ? d->roots[r->scope] + r->slot : NULL;
		else
			v = (f - r->up)->base + r->slot;
	}
	if (UNLIKELY(!v))
		return tk_error_set(
		    err, TK_ERR_FORMAT, d->file_off + d->pos / 8,
		    "cannot decode %s: the field a length or tag refers to is not available",
		    d->what);
	*out = v;
	return TK_OK;
}

static tk_status seq_length(ctf_decoder *d, const ctf_frame *f, const ctf_op *op, uint64_t *n,
			    tk_error *err)
{
	const tk_value *len = NULL;
	tk_status st = ref_value(d, f, &op->ref, &len, err);
	if (st != TK_OK)
		return st;
	if (op->ref.is_signed && len->v.i < 0)
		return tk_error_set(err, TK_ERR_FORMAT, d->file_off + d->pos / 8,
				    "cannot decode %s: negative sequence length %lld", d->what,
				    (long long)len->v.i);
	*n = len->v.u;
	return TK_OK;
}

/* Arrays are bounded by what the packet can still hold before their
 * elements are allocated. */
static inline tk_status check_length(ctf_decoder *d, const ctf_fc *elem, uint64_t n, tk_error *err)
{
	uint64_t remain = d->limit_bits - d->pos;
	uint64_t minb = elem->min_bits;
	if ((minb && n > remain / minb) || (!minb && n > ((uint64_t)1 << 16)))
		return tk_error_set(
		    err, TK_ERR_FORMAT, d->file_off + d->pos / 8,
		    "cannot decode %s: array length %llu does not fit in the packet", d->what,
		    (unsigned long long)n);
	return TK_OK;
}

static __attribute__((noinline)) tk_status decode_string(ctf_decoder *d, tk_value *out,
							 tk_error *err)
{
	uint64_t np = align_up(d->pos, 8);
	if (UNLIKELY(np > d->limit_bits))
		return short_read(d, "string", 8, err);
	d->pos = np;
	const uint8_t *start = d->buf + np / 8;
	size_t avail = (size_t)((d->limit_bits - np) / 8);
	const uint8_t *nul = memchr(start, 0, avail);
	if (UNLIKELY(!nul))
		return tk_error_set(
		    err, TK_ERR_FORMAT, d->file_off + d->pos / 8,
		    "cannot decode %s: string not terminated before the end of the packet content",
		    d->what);
	out->v.str.ptr = (const char *)start;
	out->v.str.len = (size_t)(nul - start);
	d->pos += ((uint64_t)(nul - start) + 1) * 8;
	return TK_OK;
}

/* Text arrays (8-bit, byte-aligned encoded ints) become one string value,
 * cut at the first NUL like babeltrace prints them. */
static tk_status decode_text(ctf_decoder *d, uint64_t n, tk_value *out, tk_error *err)
{
	uint64_t np = align_up(d->pos, 8);
	if (np > d->limit_bits)
		return short_read(d, "text array", n * 8, err);
	d->pos = np;
	if ((d->limit_bits - np) / 8 < n)
		return short_read(d, "text array", n * 8, err);
	const char *s = (const char *)d->buf + np / 8;
	const char *nul = memchr(s, 0, (size_t)n);
	out->v.str.ptr = s;
	out->v.str.len = nul ? (size_t)(nul - s) : (size_t)n;
	d->pos += n * 8;
	return TK_OK;
}

/* Whole-byte integers one after the other: a loop per size, byte order
 * and signedness. */
static void fill_bytes(tk_value *items, uint64_t n, const tk_field_class *cls, const uint8_t *p,
		       unsigned size, bool le, bool is_signed)
{
#define FILL(step, load)                                                                           \
	do {                                                                                       \
		for (uint64_t i = 0; i < n; i++, p += (step)) {                                    \
			items[i].cls = cls;                                                        \
			items[i].v.u = (load);                                                     \
		}                                                                                  \
	} while (0)
#define SX(bits, x) ((uint64_t)(int64_t)(int##bits##_t)(x))
	switch (size) {
	case 8:
		if (is_signed)
			FILL(1, SX(8, p[0]));
		else
			FILL(1, p[0]);
		break;
	case 16:
		if (is_signed)
			FILL(2, SX(16, le ? tk_load_le16(p) : tk_load_be16(p)));
		else if (le)
			FILL(2, tk_load_le16(p));
		else
			FILL(2, tk_load_be16(p));
		break;
	case 32:
		if (is_signed)
			FILL(4, SX(32, le ? tk_load_le32(p) : tk_load_be32(p)));
		else if (le)
			FILL(4, tk_load_le32(p));
		else
			FILL(4, tk_load_be32(p));
		break;
	case 64:
		if (le)
			FILL(8, tk_load_le64(p));
		else
			FILL(8, tk_load_be64(p));
		break;
	default: /* 24, 40, 48, 56 bits */
		for (uint64_t i = 0; i < n; i++, p += size / 8) {
			uint64_t v = 0;
			for (unsigned b = 0; b < size / 8; b++)
				v = le ? v | (uint64_t)p[b] << (8 * b) : v << 8 | p[b];
			items[i].cls = cls;
			items[i].v.u = is_signed ? sign_extend(v, size) : v;
		}
		break;
	}
#undef SX
#undef FILL
}

/* Arrays of plain integers: one instruction, a tight loop when the
 * elements are whole bytes and all of them fit. */
static tk_status decode_int_list(ctf_decoder *d, const ctf_op *op, uint64_t n, tk_value *out,
				 tk_error *err)
{
	const ctf_fc *e = op->fc->elem;
	tk_status st = check_length(d, e, n, err);
	if (st != TK_OK)
		return st;
	tk_value *items = n ? alloc_values(d, n) : NULL;
	if (n && !items)
		return nomem(err);
	uint64_t np = align_up(d->pos, op->align);
	if (np > d->limit_bits)
		return short_read(d, "array", 0, err);
	d->pos = np;
	const tk_field_class *ecls = e->model;
	unsigned size = op->size;
	bool le = op->little_endian;
	if (size % 8 == 0 && e->align <= 8 && (np & 7) == 0 && d->limit_bits - np >= n * size) {
		fill_bytes(items, n, ecls, d->buf + np / 8, size, le, op->is_signed);
		d->pos = np + n * size;
	} else {
		for (uint64_t i = 0; i < n; i++) {
			uint64_t ep = align_up(d->pos, e->align);
			if (ep > d->limit_bits || d->limit_bits - ep < size)
				return short_read(d, "integer", size, err);
			uint64_t v = read_bits(d, ep, size, le);
			d->pos = ep + size;
			items[i].cls = ecls;
			items[i].v.u = op->is_signed ? sign_extend(v, size) : v;
		}
	}
	out->cls = op->cls;
	out->v.list.items = items;
	out->v.list.n = (size_t)n;
	out->v.list.index = 0;
	return TK_OK;
}

static size_t variant_option(const ctf_op *op, const tk_value *tag)
{
	const ctf_plan_variant *var = op->var;
	if (tag->v.u < var->n_dense) {
		int32_t o = var->dense[tag->v.u];
		return o < 0 ? SIZE_MAX : (size_t)o;
	}
	const ctf_fc *fc = op->fc;
	for (size_t i = 0; i < fc->n_ranges; i++) {
		const ctf_var_range *r = &fc->ranges[i];
		bool in = op->ref.is_signed
			      ? (tag->v.i >= r->lo && tag->v.i <= r->hi)
			      : (tag->v.u >= (uint64_t)r->lo && tag->v.u <= (uint64_t)r->hi);
		if (in)
			return r->option;
	}
	return SIZE_MAX;
}

static bool grow_frames(ctf_decoder *d, uint32_t n)
{
	ctf_frame *f = realloc(d->frames, (size_t)n * sizeof *f);
	if (!f)
		return false;
	d->frames = f;
	d->frames_cap = n;
	return true;
}

void ctf_decoder_fini(ctf_decoder *d)
{
	free(d->frames);
	d->frames = NULL;
	d->frames_cap = 0;
}

static inline void set_int(tk_value *v, const ctf_op *op, uint64_t x)
{
	v->cls = op->cls;
	v->v.u = x;
}

static inline void set_struct(tk_value *base, const ctf_op *op)
{
	tk_value *v = base + op->dst;
	v->cls = op->cls;
	v->v.list.items = base + op->members;
	v->v.list.n = op->n_members;
	v->v.list.index = 0;
}

/* Interpreter registers, passed to the instructions kept out of the main
 * loop (so that it keeps its own in machine registers). */
typedef struct vm {
	const ctf_op *op;
	tk_value *base;
	ctf_frame *f;
} vm;

static __attribute__((noinline)) tk_status op_text(ctf_decoder *d, vm *m, tk_error *err)
{
	const ctf_op *op = m->op;
	uint64_t n = op->n;
	tk_status st;
	if (op->kind == CTF_OP_TEXT_SEQ && (st = seq_length(d, m->f, op, &n, err)) != TK_OK)
		return st;
	tk_value *v = m->base + op->dst;
	v->cls = op->cls;
	if ((st = decode_text(d, n, v, err)) != TK_OK)
		return st;
	m->op++;
	return TK_OK;
}

static __attribute__((noinline)) tk_status op_int_list(ctf_decoder *d, vm *m, tk_error *err)
{
	const ctf_op *op = m->op;
	uint64_t n = op->n;
	tk_status st;
	if (op->kind == CTF_OP_INT_SEQ && (st = seq_length(d, m->f, op, &n, err)) != TK_OK)
		return st;
	if ((st = decode_int_list(d, op, n, m->base + op->dst, err)) != TK_OK)
		return st;
	m->op++;
	return TK_OK;
}

/* Arrays of compound elements: each element is decoded by the body that
 * follows in a frame of its own; LOOP_END moves to the next one. */
static __attribute__((noinline)) tk_status op_array(ctf_decoder *d, const ctf_op *ops, vm *m,
						    tk_error *err)
{
	const ctf_op *op = m->op;
	uint64_t n = op->n;
	tk_status st;
	if (op->kind == CTF_OP_SEQ && (st = seq_length(d, m->f, op, &n, err)) != TK_OK)
		return st;
	if ((st = check_length(d, op->fc->elem, n, err)) != TK_OK)
		return st;
	tk_value *items = NULL, *nest = NULL;
	if (n) {
		uint64_t nv;
		items = alloc_values(d, n);
		if (op->k && !__builtin_mul_overflow(n, (uint64_t)op->k, &nv))
			nest = alloc_values(d, nv);
		if (!items || (op->k && !nest))
			return nomem(err);
	}
	uint64_t np = align_up(d->pos, op->align);
	if (np > d->limit_bits)
		return short_read(d, "array", 0, err);
	d->pos = np;
	tk_value *v = m->base + op->dst;
	v->cls = op->cls;
	v->v.list.items = items;
	v->v.list.n = (size_t)n;
	v->v.list.index = 0;
	if (n == 0) {
		m->op = ops + op->next;
		return TK_OK;
	}
	ctf_frame *f = ++m->f;
	f->items = items;
	f->nest = nest;
	f->i = 0;
	f->n = n;
	f->k = op->k;
	f->body = op + 1;
	f->base = m->base = op->k ? nest : items;
	m->op = op + 1;
	return TK_OK;
}

static __attribute__((noinline)) tk_status op_variant(ctf_decoder *d, const ctf_op *ops, vm *m,
						      tk_error *err)
{
	const ctf_op *op = m->op;
	const tk_value *tag = NULL;
	tk_status st;
	if ((st = ref_value(d, m->f, &op->ref, &tag, err)) != TK_OK)
		return st;
	size_t opt = variant_option(op, tag);
	if (opt == SIZE_MAX && op->fc->is_optional)
		opt = 0; /* a CTF 2 optional whose selector says "absent" */
	if (UNLIKELY(opt == SIZE_MAX))
		return tk_error_set(err, TK_ERR_FORMAT, d->file_off + d->pos / 8,
				    "cannot decode %s: no variant option for tag value %lld",
				    d->what, (long long)tag->v.i);
	const ctf_plan_option *o = &op->var->options[opt];
	tk_value *blk = alloc_values(d, o->n_values);
	if (!blk)
		return nomem(err);
	tk_value *v = m->base + op->dst;
	v->cls = op->cls;
	v->v.list.items = blk;
	v->v.list.n = 1;
	v->v.list.index = opt;
	ctf_frame *f = ++m->f;
	f->base = m->base = blk;
	m->op = ops + o->pc;
	return TK_OK;
}

static inline void int_special(ctf_decoder *d, const ctf_op *op, uint64_t v)
{
	if (op->clock)
		update_clock(d, v, op->size);
	if (op->meaning != CTF_MEANING_NONE) {
		d->meaning_val[op->meaning] = v;
		d->meaning_set[op->meaning] = true;
	}
}

static inline void set_float(tk_value *v, const ctf_op *op, uint64_t bits)
{
	v->cls = op->cls;
	if (op->size == 32) {
		uint32_t w = (uint32_t)bits;
		float x;
		memcpy(&x, &w, 4);
		v->v.f = x;
	} else {
		double x;
		memcpy(&x, &bits, 8);
		v->v.f = x;
	}
}

/* Fixed text is cut at its first NUL, like babeltrace prints it. */
static inline void set_text(tk_value *v, const ctf_op *op, const uint8_t *p)
{
	const char *s = (const char *)p;
	const char *nul = memchr(s, 0, (size_t)op->n);
	v->cls = op->cls;
	v->v.str.ptr = s;
	v->v.str.len = nul ? (size_t)(nul - s) : (size_t)op->n;
}

static const char *const scope_what[CTF_SCOPE_COUNT] = {
    [CTF_SCOPE_PACKET_HEADER] = "packet header",
    [CTF_SCOPE_PACKET_CONTEXT] = "packet context",
    [CTF_SCOPE_EVENT_HEADER] = "event header",
    [CTF_SCOPE_EVENT_COMMON_CONTEXT] = "stream event context",
    [CTF_SCOPE_EVENT_CONTEXT] = "event context",
    [CTF_SCOPE_EVENT_PAYLOAD] = "event payload",
};

/* The event class an event header named (or the stream class's only
 * one): errors and unusual ids. */
static __attribute__((noinline)) tk_status
event_class_slow(ctf_decoder *d, const ctf_stream_class *sc, uint64_t ev_off,
		 const ctf_event_class **ec, tk_error *err)
{
	if (d->meaning_set[CTF_MEANING_EVENT_ID]) {
		uint64_t id = d->meaning_val[CTF_MEANING_EVENT_ID];
		*ec = ctf_stream_class_event(sc, id);
		if (!*ec)
			return tk_error_set(err, TK_ERR_FORMAT, ev_off,
					    "no event class with id %llu in stream class %llu",
					    (unsigned long long)id, (unsigned long long)sc->id);
		return TK_OK;
	}
	if (sc->n_events == 1) {
		*ec = sc->events[0];
		return TK_OK;
	}
	return tk_error_set(err, TK_ERR_FORMAT, ev_off,
			    sc->n_events
				? "event without an id in a stream class with several event classes"
				: "event in a stream class without event classes");
}

static inline tk_status event_class_of(ctf_decoder *d, const ctf_stream_class *sc, uint64_t ev_off,
				       const ctf_event_class **ec, tk_error *err)
{
	if (LIKELY(d->meaning_set[CTF_MEANING_EVENT_ID])) {
		uint64_t id = d->meaning_val[CTF_MEANING_EVENT_ID];
		int32_t k;
		if (id < sc->by_id_len && (k = sc->by_id[id]) >= 0) {
			*ec = sc->events[k];
			return TK_OK;
		}
	}
	return event_class_slow(d, sc, ev_off, ec, err);
}

/* The event scope after `scope` that the stream and event classes have,
 * or NULL after the payload. */
static inline const ctf_plan *next_event_scope(const ctf_stream_class *sc,
					       const ctf_event_class *ec, ctf_scope *scope)
{
	switch (*scope) {
	case CTF_SCOPE_EVENT_HEADER:
		if (sc->event_context_plan) {
			*scope = CTF_SCOPE_EVENT_COMMON_CONTEXT;
			return sc->event_context_plan;
		}
		/* fall through */
	case CTF_SCOPE_EVENT_COMMON_CONTEXT:
		if (ec->context_plan) {
			*scope = CTF_SCOPE_EVENT_CONTEXT;
			return ec->context_plan;
		}
		/* fall through */
	case CTF_SCOPE_EVENT_CONTEXT:
		if (ec->payload_plan) {
			*scope = CTF_SCOPE_EVENT_PAYLOAD;
			return ec->payload_plan;
		}
		/* fall through */
	default: return NULL;
	}
}

#include "ctf/ctf2_decode_ops.h"

/* The interpreter, in two copies (ctf_decode_loop.h): interp_scope runs
 * one scope, ctf_decode_event the scopes of one event in a row. */
#define INTERP_EVENT 0
#include "ctf/ctf_decode_loop.h"
#undef INTERP_EVENT
#define INTERP_EVENT 1
#include "ctf/ctf_decode_loop.h"
#undef INTERP_EVENT

tk_status ctf_decode_plan(ctf_decoder *d, const ctf_plan *plan, ctf_scope scope, tk_value **out,
			  tk_error *err)
{
	return interp_scope(d, plan, scope, out, err);
}
