/* The decode plan compiler: one pass over each resolved scope that lays out
 * value slots, follows the static bit position to merge fixed-size fields
 * into runs, and turns references into (frame, slot) pairs. See ctf_plan.h
 * for the shape of a plan and ctf_decode.c for the interpreter. */
#include "ctf/ctf_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Covered offsets are 32-bit: a run stops growing before this many bits. */
#define RUN_MAX_BITS ((uint64_t)1 << 30)
/* Variant tags below this are looked up in a table. */
#define DENSE_MAX 256

typedef struct struct_ctx {
	const ctf_fc *fc;
	uint32_t frame;        /* frame depth of the struct's values */
	uint32_t members_slot; /* slot of its first member */
} struct_ctx;

typedef struct compiler {
	ctf_trace_class *tc;
	tk_error *err;
	ctf_op *ops; /* grows with realloc; copied into the arena at the end */
	size_t n_ops, cap_ops;
	/* the frame being filled */
	uint32_t frame;     /* 0 = the scope root */
	uint32_t next_slot; /* next free value slot in it */
	uint32_t max_frames;
	/* static knowledge of the bit position: pos % known == off */
	uint64_t known;
	uint64_t off;
	/* the open run: index of its RUN instruction, or SIZE_MAX */
	size_t run;
	uint64_t run_bits;
	bool opened; /* the last place() opened the run */
	/* enclosing structs, innermost last (relative references) */
	struct_ctx stack[CTF_PLAN_STRUCT_DEPTH];
	size_t depth;
	/* scope being compiled, and the roots of all scopes of this event */
	ctf_scope scope;
	const ctf_fc *roots[CTF_SCOPE_COUNT];
	/* root members of the current scope decoded so far (absolute
	 * references into the current scope need a complete member) */
	const ctf_fc **done;
	size_t n_done, cap_done;
} compiler;

static tk_status nomem(compiler *c)
{
	return tk_error_set(c->err, TK_ERR_NOMEM, TK_NO_OFFSET, "metadata: out of memory");
}

static ctf_op *emit(compiler *c, ctf_op_kind kind, const ctf_fc *fc, uint32_t dst)
{
	if (c->n_ops == c->cap_ops) {
		size_t cap = c->cap_ops ? c->cap_ops * 2 : 64;
		if (cap > UINT32_MAX / 2)
			return NULL;
		ctf_op *ops = realloc(c->ops, cap * sizeof *ops);
		if (!ops)
			return NULL;
		c->ops = ops;
		c->cap_ops = cap;
	}
	ctf_op *op = &c->ops[c->n_ops++];
	memset(op, 0, sizeof *op);
	op->kind = (uint8_t)kind;
	op->fc = fc;
	op->cls = fc ? fc->model : NULL;
	op->dst = dst;
	op->align = fc && fc->align ? fc->align : 1;
	return op;
}

static void close_run(compiler *c)
{
	if (c->run == SIZE_MAX)
		return;
	ctf_op *r = &c->ops[c->run];
	r->n = c->run_bits;
	r->k = (uint32_t)(c->n_ops - c->run - 1);
	c->run = SIZE_MAX;
}

/* The position is known only modulo `known` from here on. */
static void forget(compiler *c, uint64_t known)
{
	close_run(c);
	c->known = known ? known : 1;
	c->off = 0;
}

/* Places a fixed-size item of `bits` with alignment `align` in the open
 * run, opening one (with a dynamic alignment when the static knowledge
 * is not enough) when needed. *off: its bit offset from the run start;
 * *byte: whether it starts on a byte boundary. A zero-size item whose
 * alignment is already satisfied needs no run (*off = UINT32_MAX). */
static tk_status place(compiler *c, uint64_t align, uint64_t bits, uint32_t *off, bool *byte)
{
	if (align == 0)
		align = 1;
	c->opened = false;
	bool dynamic = align > c->known;
	if (dynamic || (c->run != SIZE_MAX && c->run_bits + bits + align > RUN_MAX_BITS))
		close_run(c);
	uint32_t run_align = 1;
	if (dynamic) {
		/* the RUN aligns: from there the position is known modulo align */
		run_align = (uint32_t)align;
		c->known = align;
		c->off = 0;
	}
	uint64_t pad = (align - c->off % align) % align;
	if (c->run == SIZE_MAX) {
		if (bits == 0 && pad == 0 && !dynamic) {
			*off = UINT32_MAX;
			*byte = c->known >= 8 && c->off % 8 == 0;
			return TK_OK;
		}
		ctf_op *r = emit(c, CTF_OP_RUN, NULL, 0);
		if (!r)
			return nomem(c);
		r->align = run_align;
		c->run = c->n_ops - 1;
		c->run_bits = 0;
		c->opened = true;
	}
	*off = (uint32_t)(c->run_bits + pad);
	uint64_t at = (c->off + pad) % c->known;
	*byte = c->known >= 8 && at % 8 == 0;
	c->run_bits += pad + bits;
	c->off = (at + bits) % c->known;
	return TK_OK;
}

/* Values a field places in its own frame beyond itself: the members of
 * its structs, recursively (arrays and variants open frames of their own). */
static uint32_t static_values(const ctf_fc *fc, unsigned depth)
{
	if (!fc || fc->type != CTF_FC_STRUCT || depth > 256)
		return 0;
	uint64_t n = fc->n_members;
	for (size_t i = 0; i < fc->n_members; i++)
		n += static_values(fc->members[i].fc, depth + 1);
	return n > UINT32_MAX / 2 ? UINT32_MAX / 2 : (uint32_t)n;
}

/* Slot of the field at idx[0..n) below a struct whose members start at
 * members_slot, with the layout compile_field gives. */
static uint32_t slot_of_path(const ctf_fc *s, uint32_t members_slot, const uint16_t *idx,
			     unsigned n)
{
	uint32_t slot = 0;
	for (unsigned i = 0; i < n && s && s->type == CTF_FC_STRUCT && idx[i] < s->n_members; i++) {
		slot = members_slot + idx[i];
		uint32_t nested = members_slot + (uint32_t)s->n_members;
		for (size_t j = 0; j < idx[i]; j++)
			nested += static_values(s->members[j].fc, 0);
		s = s->members[idx[i]].fc;
		members_slot = nested;
	}
	return slot;
}

static bool is_done(const compiler *c, const ctf_fc *fc)
{
	for (size_t i = 0; i < c->n_done; i++)
		if (c->done[i] == fc)
			return true;
	return false;
}

static tk_status mark_done(compiler *c, const ctf_fc *fc)
{
	if (c->n_done == c->cap_done) {
		size_t cap = c->cap_done ? c->cap_done * 2 : 16;
		const ctf_fc **d = realloc(c->done, cap * sizeof *d);
		if (!d)
			return nomem(c);
		c->done = d;
		c->cap_done = cap;
	}
	c->done[c->n_done++] = fc;
	return TK_OK;
}

/* Where the decoder finds a length or tag at run time. */
static void compile_ref(const compiler *c, const ctf_field_ref *ref, ctf_plan_ref *out)
{
	memset(out, 0, sizeof *out);
	out->is_signed = ref->target && ref->target->is_signed;
	if (ref->relative) {
		/* the resolver counted the same enclosing structs */
		if (ref->up >= c->depth)
			return;
		const struct_ctx *s = &c->stack[c->depth - 1 - ref->up];
		out->available = true;
		out->up = c->frame - s->frame;
		out->slot = slot_of_path(s->fc, s->members_slot, ref->idx, ref->n);
		return;
	}
	const ctf_fc *root = ref->scope < CTF_SCOPE_COUNT ? c->roots[ref->scope] : NULL;
	if (!root || root->type != CTF_FC_STRUCT || ref->n == 0 || ref->idx[0] >= root->n_members)
		return;
	/* a member of the scope being decoded counts once it is complete,
	 * as the tree decoder saw it */
	if (ref->scope == c->scope && !is_done(c, root->members[ref->idx[0]].fc))
		return;
	out->available = true;
	out->root = true;
	out->scope = (uint8_t)ref->scope;
	out->slot = slot_of_path(root, 1, ref->idx, ref->n);
}

static bool is_plain_int(const ctf_fc *fc)
{
	return (fc->type == CTF_FC_INT || fc->type == CTF_FC_ENUM) && fc->clock < 0 &&
	       fc->meaning == CTF_MEANING_NONE;
}

static ctf_op_kind int_kind(const ctf_fc *fc, bool byte)
{
	bool le = fc->little_endian, s = fc->is_signed;
	if (byte) {
		switch (fc->size) {
		case 8: return s ? CTF_OP_S8 : CTF_OP_U8;
		case 16:
			return s ? (le ? CTF_OP_S16_LE : CTF_OP_S16_BE)
				 : (le ? CTF_OP_U16_LE : CTF_OP_U16_BE);
		case 32:
			return s ? (le ? CTF_OP_S32_LE : CTF_OP_S32_BE)
				 : (le ? CTF_OP_U32_LE : CTF_OP_U32_BE);
		case 64: return le ? CTF_OP_U64_LE : CTF_OP_U64_BE;
		default: break;
		}
	}
	return le ? CTF_OP_BITS_LE : CTF_OP_BITS_BE;
}

/* A new frame (array element, variant option): nothing is known of the
 * position where it starts; its own value is slot 0. */
typedef struct frame_save {
	uint32_t frame, next_slot;
} frame_save;

static frame_save enter_frame(compiler *c)
{
	frame_save s = {c->frame, c->next_slot};
	forget(c, 1);
	c->frame++;
	if (c->frame + 1 > c->max_frames)
		c->max_frames = c->frame + 1;
	c->next_slot = 1;
	return s;
}

static uint32_t leave_frame(compiler *c, frame_save s)
{
	uint32_t n = c->next_slot;
	close_run(c);
	c->frame = s.frame;
	c->next_slot = s.next_slot;
	return n;
}

static tk_status compile_field(compiler *c, const ctf_fc *fc, uint32_t dst, unsigned depth);

/* A CTF 2 class read out of line (CTF_OP_CTF2); `after`: the alignment
 * known once it is read. */
static tk_status compile_ctf2(compiler *c, const ctf_fc *fc, uint32_t dst, unsigned after)
{
	close_run(c);
	ctf_op *op = emit(c, CTF_OP_CTF2, fc, dst);
	if (!op)
		return nomem(c);
	op->align = fc->align;
	op->little_endian = fc->little_endian;
	op->is_signed = fc->is_signed;
	if (fc->type == CTF_FC_INT || fc->type == CTF_FC_ENUM) {
		op->size = 64;
		op->clock = fc->clock >= 0 && fc->meaning != CTF_MEANING_TS_END;
		op->meaning = (uint8_t)fc->meaning;
	} else if (fc->type == CTF_FC_ARRAY) {
		op->n = fc->length;
	} else if (fc->type == CTF_FC_SEQUENCE) {
		compile_ref(c, &fc->ref, &op->ref);
	}
	forget(c, after);
	return TK_OK;
}

static tk_status compile_struct(compiler *c, const ctf_fc *fc, uint32_t dst, unsigned depth)
{
	tk_status st;
	uint32_t off;
	bool byte;
	if ((st = place(c, fc->align, 0, &off, &byte)) != TK_OK)
		return st;
	if (c->depth >= CTF_PLAN_STRUCT_DEPTH)
		return tk_error_set(c->err, TK_ERR_LIMIT, TK_NO_OFFSET,
				    "metadata: structs nested too deeply");
	if (fc->n_members > UINT32_MAX / 2 - c->next_slot)
		return tk_error_set(c->err, TK_ERR_LIMIT, TK_NO_OFFSET,
				    "metadata: too many fields in one scope");
	ctf_op *op;
	if (c->opened && off == 0 && c->ops[c->run].align == fc->align) {
		/* the struct's alignment opened this run: one instruction for both */
		op = &c->ops[c->run];
		op->kind = CTF_OP_RUN_STRUCT;
		op->fc = fc;
		op->cls = fc->model;
		op->dst = dst;
	} else if (!(op = emit(c, CTF_OP_STRUCT, fc, dst))) {
		return nomem(c);
	}
	uint32_t members = c->next_slot;
	op->members = members;
	op->n_members = (uint32_t)fc->n_members;
	c->next_slot += (uint32_t)fc->n_members;
	c->stack[c->depth].fc = fc;
	c->stack[c->depth].frame = c->frame;
	c->stack[c->depth].members_slot = members;
	c->depth++;
	bool root = c->frame == 0 && c->depth == 1 && dst == 0;
	for (size_t i = 0; i < fc->n_members; i++) {
		const ctf_fc *m = fc->members[i].fc;
		if ((st = compile_field(c, m, members + (uint32_t)i, depth + 1)) != TK_OK)
			return st;
		if (root && (st = mark_done(c, m)) != TK_OK)
			return st;
	}
	c->depth--;
	return TK_OK;
}

static tk_status compile_list(compiler *c, const ctf_fc *fc, uint32_t dst, unsigned depth)
{
	tk_status st;
	bool seq = fc->type == CTF_FC_SEQUENCE;
	const ctf_fc *e = fc->elem;
	if (fc->is_blob || (fc->elem_is_text && fc->enc_unit > 1))
		return compile_ctf2(c, fc, dst, 8);
	if (fc->elem_is_text) {
		if (!seq && fc->length <= RUN_MAX_BITS / 16) {
			/* fixed text (procname[16]...): part of a run */
			uint32_t off;
			bool byte;
			if ((st = place(c, e->align, fc->length * 8, &off, &byte)) != TK_OK)
				return st;
			ctf_op *op = emit(c, CTF_OP_TEXT_FIXED, fc, dst);
			if (!op)
				return nomem(c);
			op->off = off;
			op->n = fc->length;
			op->align = e->align;
			return TK_OK;
		}
		close_run(c);
		ctf_op *op = emit(c, seq ? CTF_OP_TEXT_SEQ : CTF_OP_TEXT_ARRAY, fc, dst);
		if (!op)
			return nomem(c);
		op->n = seq ? 0 : fc->length; /* a sequence's length is read */
		op->align = e->align;
		if (seq)
			compile_ref(c, &fc->ref, &op->ref);
		forget(c, 8);
		return TK_OK;
	}
	close_run(c);
	if (is_plain_int(e)) {
		ctf_op *op = emit(c, seq ? CTF_OP_INT_SEQ : CTF_OP_INT_ARRAY, fc, dst);
		if (!op)
			return nomem(c);
		op->n = seq ? 0 : fc->length; /* a sequence's length is read */
		op->size = (uint8_t)e->size;
		op->is_signed = e->is_signed;
		op->little_endian = e->little_endian;
		if (seq)
			compile_ref(c, &fc->ref, &op->ref);
		/* elements whose size is a multiple of their alignment keep it */
		forget(c, e->size % op->align == 0 ? op->align : 1);
		return TK_OK;
	}
	size_t at = c->n_ops;
	ctf_op *op = emit(c, seq ? CTF_OP_SEQ : CTF_OP_ARRAY, fc, dst);
	if (!op)
		return nomem(c);
	op->n = seq ? 0 : fc->length; /* a sequence's length is read */
	if (seq)
		compile_ref(c, &fc->ref, &op->ref);
	frame_save s = enter_frame(c);
	if ((st = compile_field(c, e, 0, depth + 1)) != TK_OK)
		return st;
	close_run(c);
	if (!emit(c, CTF_OP_LOOP_END, NULL, 0))
		return nomem(c);
	uint32_t n = leave_frame(c, s);
	op = &c->ops[at]; /* emit may have moved the array */
	/* one value per element: the elements themselves are the frames */
	op->k = n > 1 ? n : 0;
	op->next = (uint32_t)c->n_ops;
	forget(c, 1);
	return TK_OK;
}

static tk_status compile_variant(compiler *c, const ctf_fc *fc, uint32_t dst, unsigned depth)
{
	tk_status st;
	close_run(c);
	ctf_op *op = emit(c, CTF_OP_VARIANT, fc, dst);
	if (!op)
		return nomem(c);
	compile_ref(c, &fc->ref, &op->ref);
	ctf_plan_variant *var = tk_arena_calloc(&c->tc->arena, 1, sizeof *var);
	ctf_plan_option *opts = tk_arena_calloc(&c->tc->arena, fc->n_members + 1, sizeof *opts);
	/* the table covers tag values up to the highest range end below DENSE_MAX */
	uint64_t n_dense = 0;
	for (size_t i = 0; i < fc->n_ranges; i++) {
		const ctf_var_range *r = &fc->ranges[i];
		uint64_t hi = (uint64_t)r->hi;
		if (op->ref.is_signed && r->hi < 0)
			continue;
		if (hi >= DENSE_MAX - 1)
			hi = DENSE_MAX - 1;
		if (hi + 1 > n_dense)
			n_dense = hi + 1;
	}
	int32_t *dense = tk_arena_alloc(&c->tc->arena, (n_dense + 1) * sizeof *dense);
	if (!var || !opts || !dense)
		return nomem(c);
	/* the first range holding a value wins, as in the decoder's search */
	for (uint64_t t = 0; t < n_dense; t++)
		dense[t] = -1;
	for (size_t i = 0; i < fc->n_ranges; i++) {
		const ctf_var_range *r = &fc->ranges[i];
		uint64_t lo, hi;
		if (op->ref.is_signed) {
			if (r->hi < 0 || r->lo > r->hi)
				continue;
			lo = r->lo < 0 ? 0 : (uint64_t)r->lo;
			hi = (uint64_t)r->hi;
		} else {
			lo = (uint64_t)r->lo;
			hi = (uint64_t)r->hi;
		}
		for (uint64_t t = lo; t <= hi && t < n_dense; t++)
			if (dense[t] < 0)
				dense[t] = (int32_t)r->option;
	}
	var->options = opts;
	var->dense = dense;
	var->n_dense = (uint32_t)n_dense;
	op->var = var;
	size_t *ends = calloc(fc->n_members + 1, sizeof *ends);
	if (!ends)
		return nomem(c);
	for (size_t i = 0; i < fc->n_members; i++) {
		frame_save s = enter_frame(c);
		opts[i].pc = (uint32_t)c->n_ops;
		if ((st = compile_field(c, fc->members[i].fc, 0, depth + 1)) != TK_OK)
			goto out;
		close_run(c);
		ends[i] = c->n_ops;
		if (!emit(c, CTF_OP_VARIANT_END, NULL, 0)) {
			st = nomem(c);
			goto out;
		}
		opts[i].n_values = leave_frame(c, s);
	}
	for (size_t i = 0; i < fc->n_members; i++)
		c->ops[ends[i]].next = (uint32_t)c->n_ops;
	forget(c, 1);
	st = TK_OK;
out:
	free(ends);
	return st;
}

static tk_status compile_field(compiler *c, const ctf_fc *fc, uint32_t dst, unsigned depth)
{
	tk_status st;
	if (depth > 256)
		return tk_error_set(c->err, TK_ERR_LIMIT, TK_NO_OFFSET,
				    "metadata: types nested too deeply");
	switch (fc->type) {
	case CTF_FC_INT:
	case CTF_FC_ENUM: {
		uint32_t off;
		bool byte;
		if (fc->varint)
			return compile_ctf2(c, fc, dst, 8);
		if ((st = place(c, fc->align, fc->size, &off, &byte)) != TK_OK)
			return st;
		bool special = fc->clock >= 0 || fc->meaning != CTF_MEANING_NONE;
		ctf_op_kind kind = int_kind(fc, byte);
		if (special)
			kind = kind == CTF_OP_U64_LE ? CTF_OP_U64_LE_SPECIAL : CTF_OP_INT_SPECIAL;
		ctf_op *op = emit(c, kind, fc, dst);
		if (!op)
			return nomem(c);
		op->off = off;
		op->size = (uint8_t)fc->size;
		op->is_signed = fc->is_signed;
		op->little_endian = fc->little_endian;
		/* timestamp_end says when the packet ends, not when its events happen */
		op->clock = fc->clock >= 0 && fc->meaning != CTF_MEANING_TS_END;
		op->meaning = (uint8_t)fc->meaning;
		return TK_OK;
	}
	case CTF_FC_FLOAT: {
		uint32_t off;
		bool byte;
		if (fc->size != 32 && fc->size != 64)
			return compile_ctf2(c, fc, dst, 1);
		if ((st = place(c, fc->align, fc->size, &off, &byte)) != TK_OK)
			return st;
		ctf_op *op = emit(c, CTF_OP_FLOAT, fc, dst);
		if (!op)
			return nomem(c);
		op->off = off;
		op->size = (uint8_t)fc->size;
		op->little_endian = fc->little_endian;
		return TK_OK;
	}
	case CTF_FC_STRING:
		if (fc->enc_unit > 1)
			return compile_ctf2(c, fc, dst, 8);
		close_run(c);
		if (!emit(c, CTF_OP_STRING, fc, dst))
			return nomem(c);
		forget(c, 8);
		return TK_OK;
	case CTF_FC_STRUCT: return compile_struct(c, fc, dst, depth);
	case CTF_FC_ARRAY:
	case CTF_FC_SEQUENCE: return compile_list(c, fc, dst, depth);
	case CTF_FC_VARIANT: return compile_variant(c, fc, dst, depth);
	}
	return tk_error_set(c->err, TK_ERR_FORMAT, TK_NO_OFFSET, "metadata: unknown field type");
}

static tk_status compile_scope(compiler *c, const ctf_fc *root, ctf_scope scope,
			       const ctf_plan **out)
{
	*out = NULL;
	c->roots[scope] = root;
	if (!root)
		return TK_OK;
	c->scope = scope;
	c->n_ops = 0;
	c->frame = 0;
	c->next_slot = 1;
	c->max_frames = 1;
	c->known = 1;
	c->off = 0;
	c->run = SIZE_MAX;
	c->run_bits = 0;
	c->depth = 0;
	c->n_done = 0;
	tk_status st = compile_field(c, root, 0, 0);
	if (st != TK_OK)
		return st;
	close_run(c);
	if (!emit(c, CTF_OP_END, NULL, 0))
		return nomem(c);
	ctf_plan *plan = tk_arena_calloc(&c->tc->arena, 1, sizeof *plan);
	ctf_op *ops = tk_arena_alloc(&c->tc->arena, c->n_ops * sizeof *ops);
	if (!plan || !ops)
		return nomem(c);
	memcpy(ops, c->ops, c->n_ops * sizeof *ops);
	plan->ops = ops;
	plan->n_ops = (uint32_t)c->n_ops;
	plan->n_values = c->next_slot;
	plan->max_frames = c->max_frames;
	plan->targets = tk_arena_calloc(&c->tc->arena, plan->n_values, 1);
	if (!plan->targets)
		return nomem(c);
	if (plan->max_frames > c->tc->max_frames)
		c->tc->max_frames = plan->max_frames;
	*out = plan;
	return TK_OK;
}

/* Smallest encoded size of a class: bounds array lengths before the
 * decoder allocates their elements. */
static uint64_t min_bits(ctf_fc *fc, unsigned depth)
{
	if (!fc || depth > 256)
		return 0;
	uint64_t b = 0;
	switch (fc->type) {
	case CTF_FC_INT:
	case CTF_FC_ENUM:
	case CTF_FC_FLOAT: b = fc->varint ? 8 : fc->size; break;
	case CTF_FC_STRING: b = fc->enc_unit > 1 ? 8u * fc->enc_unit : 8; break;
	case CTF_FC_STRUCT:
		for (size_t i = 0; i < fc->n_members; i++) {
			uint64_t m = min_bits(fc->members[i].fc, depth + 1);
			b = b + m < b ? UINT64_MAX : b + m;
		}
		break;
	case CTF_FC_VARIANT:
		b = UINT64_MAX;
		for (size_t i = 0; i < fc->n_members; i++) {
			uint64_t m = min_bits(fc->members[i].fc, depth + 1);
			if (m < b)
				b = m;
		}
		if (fc->n_members == 0)
			b = 0;
		break;
	case CTF_FC_ARRAY: {
		uint64_t e = min_bits((ctf_fc *)fc->elem, depth + 1);
		b = e && fc->length > UINT64_MAX / e ? UINT64_MAX : e * fc->length;
		break;
	}
	case CTF_FC_SEQUENCE:
		min_bits((ctf_fc *)fc->elem, depth + 1);
		b = 0;
		break;
	}
	fc->min_bits = b;
	return b;
}

/* ---- lean plans (readers that never look at the values) ---- */

static bool has_ref(const ctf_op *op)
{
	switch ((ctf_op_kind)op->kind) {
	case CTF_OP_TEXT_SEQ:
	case CTF_OP_INT_SEQ:
	case CTF_OP_SEQ:
	case CTF_OP_CTF2:
	case CTF_OP_VARIANT: return true;
	default: return false;
	}
}

/* The plan of `scope` for events of sc with class ec (ec NULL: stream
 * scopes only). */
static ctf_plan *scope_plan(const ctf_trace_class *tc, const ctf_stream_class *sc,
			    const ctf_event_class *ec, unsigned scope)
{
	const ctf_plan *p = NULL;
	switch (scope) {
	case CTF_SCOPE_PACKET_HEADER: p = tc->packet_header_plan; break;
	case CTF_SCOPE_PACKET_CONTEXT: p = sc->packet_context_plan; break;
	case CTF_SCOPE_EVENT_HEADER: p = sc->event_header_plan; break;
	case CTF_SCOPE_EVENT_COMMON_CONTEXT: p = sc->event_context_plan; break;
	case CTF_SCOPE_EVENT_CONTEXT: p = ec ? ec->context_plan : NULL; break;
	case CTF_SCOPE_EVENT_PAYLOAD: p = ec ? ec->payload_plan : NULL; break;
	default: break;
	}
	return (ctf_plan *)p; /* compile time: the compiler's own arena objects */
}

/* Marks the slots the lengths and tags of `from` read. A relative
 * reference from a nested frame may reach the root frame: then every
 * slot of the plan counts (rare, and only costs stores). */
static void mark_targets(const ctf_trace_class *tc, const ctf_stream_class *sc,
			 const ctf_event_class *ec, ctf_plan *from)
{
	if (!from)
		return;
	for (uint32_t i = 0; i < from->n_ops; i++) {
		const ctf_op *op = &from->ops[i];
		if (!has_ref(op) || !op->ref.available)
			continue;
		if (!op->ref.root) {
			if (op->ref.up == 0 && op->ref.slot < from->n_values)
				from->targets[op->ref.slot] = 1;
			else
				from->all_targets = true;
			continue;
		}
		ctf_plan *to = scope_plan(tc, sc, ec, op->ref.scope);
		if (to && op->ref.slot < to->n_values)
			to->targets[op->ref.slot] = 1;
	}
}

/* Index just past the nested frame(s) that start at ops[i] (an array of
 * compound elements or a variant): their bodies are kept as they are. */
static uint32_t skip_nested(const ctf_plan *p, uint32_t i)
{
	const ctf_op *op = &p->ops[i];
	if (op->kind == CTF_OP_ARRAY || op->kind == CTF_OP_SEQ)
		return op->next;
	/* a variant: its option bodies follow; the first VARIANT_END at this
	 * level says where the variant ends */
	for (uint32_t j = i + 1; j < p->n_ops;) {
		const ctf_op *o = &p->ops[j];
		if (o->kind == CTF_OP_ARRAY || o->kind == CTF_OP_SEQ || o->kind == CTF_OP_VARIANT)
			j = skip_nested(p, j);
		else if (o->kind == CTF_OP_VARIANT_END)
			return o->next;
		else
			j++;
	}
	return i + 1; /* a variant without options */
}

/* What a root-frame instruction becomes in the lean plan: dropped
 * (false) or kept, maybe changed. */
static bool lean_op(const ctf_plan *p, const ctf_op *op, ctf_op *out)
{
	bool target = p->all_targets || (op->dst < p->n_values && p->targets[op->dst]);
	*out = *op;
	switch ((ctf_op_kind)op->kind) {
	case CTF_OP_RUN_STRUCT: out->kind = CTF_OP_RUN; /* fall through */
	case CTF_OP_RUN: out->full = op; return true;
	case CTF_OP_STRUCT: return false;
	case CTF_OP_U8:
	case CTF_OP_S8:
	case CTF_OP_U16_LE:
	case CTF_OP_U16_BE:
	case CTF_OP_S16_LE:
	case CTF_OP_S16_BE:
	case CTF_OP_U32_LE:
	case CTF_OP_U32_BE:
	case CTF_OP_S32_LE:
	case CTF_OP_S32_BE:
	case CTF_OP_U64_LE:
	case CTF_OP_U64_BE:
	case CTF_OP_BITS_LE:
	case CTF_OP_BITS_BE: return target;
	case CTF_OP_FLOAT:
	case CTF_OP_TEXT_FIXED: return false;
	case CTF_OP_STRING:
		if (!target)
			out->kind = CTF_OP_STRING_SKIP;
		return true;
	default: return true;
	}
}

static tk_status make_lean(ctf_trace_class *tc, ctf_plan *p, tk_error *err)
{
	if (!p || p->lean)
		return TK_OK;
	tk_status st = TK_OK;
	/* new index of each old instruction (a dropped one: the next kept) */
	uint32_t *map = malloc(((size_t)p->n_ops + 1) * sizeof *map);
	ctf_op *ops = tk_arena_alloc(&tc->arena, (size_t)p->n_ops * sizeof *ops);
	ctf_plan *lean = tk_arena_calloc(&tc->arena, 1, sizeof *lean);
	if (!map || !ops || !lean) {
		st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "metadata: out of memory");
		goto out;
	}
	uint32_t n = 0;
	for (uint32_t i = 0; i < p->n_ops;) {
		const ctf_op *op = &p->ops[i];
		if (op->kind == CTF_OP_ARRAY || op->kind == CTF_OP_SEQ ||
		    op->kind == CTF_OP_VARIANT) {
			uint32_t end = skip_nested(p, i);
			for (; i < end && i < p->n_ops; i++) {
				map[i] = n;
				ops[n++] = p->ops[i];
			}
			continue;
		}
		map[i] = n;
		if (lean_op(p, op, &ops[n]))
			n++;
		i++;
	}
	map[p->n_ops] = n;
	/* jumps: array ends, variant ends and option bodies */
	for (uint32_t i = 0; i < n; i++) {
		ctf_op *op = &ops[i];
		if (op->kind == CTF_OP_ARRAY || op->kind == CTF_OP_SEQ ||
		    op->kind == CTF_OP_VARIANT_END) {
			op->next = map[op->next <= p->n_ops ? op->next : p->n_ops];
		} else if (op->kind == CTF_OP_VARIANT) {
			const ctf_fc *fc = op->fc;
			ctf_plan_variant *var = tk_arena_alloc(&tc->arena, sizeof *var);
			ctf_plan_option *opts =
			    tk_arena_calloc(&tc->arena, fc->n_members + 1, sizeof *opts);
			if (!var || !opts) {
				st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
						  "metadata: out of memory");
				goto out;
			}
			*var = *op->var;
			for (size_t k = 0; k < fc->n_members; k++) {
				opts[k] = op->var->options[k];
				opts[k].pc = map[opts[k].pc <= p->n_ops ? opts[k].pc : p->n_ops];
			}
			var->options = opts;
			op->var = var;
		}
	}
	*lean = *p;
	lean->ops = ops;
	lean->n_ops = n;
	lean->lean = NULL;
	p->lean = lean;
out:
	free(map);
	return st;
}

/* Lean twins of the event scopes, once every reference is known. */
static tk_status make_lean_plans(ctf_trace_class *tc, tk_error *err)
{
	for (size_t i = 0; i < tc->n_streams; i++) {
		const ctf_stream_class *sc = tc->streams[i];
		mark_targets(tc, sc, NULL, (ctf_plan *)sc->event_header_plan);
		mark_targets(tc, sc, NULL, (ctf_plan *)sc->event_context_plan);
		for (size_t j = 0; j < sc->n_events; j++) {
			const ctf_event_class *ec = sc->events[j];
			mark_targets(tc, sc, ec, (ctf_plan *)ec->context_plan);
			mark_targets(tc, sc, ec, (ctf_plan *)ec->payload_plan);
		}
	}
	tk_status st = TK_OK;
	for (size_t i = 0; i < tc->n_streams && st == TK_OK; i++) {
		const ctf_stream_class *sc = tc->streams[i];
		if ((st = make_lean(tc, (ctf_plan *)sc->event_header_plan, err)) != TK_OK ||
		    (st = make_lean(tc, (ctf_plan *)sc->event_context_plan, err)) != TK_OK)
			break;
		for (size_t j = 0; j < sc->n_events && st == TK_OK; j++) {
			const ctf_event_class *ec = sc->events[j];
			if ((st = make_lean(tc, (ctf_plan *)ec->context_plan, err)) == TK_OK)
				st = make_lean(tc, (ctf_plan *)ec->payload_plan, err);
		}
	}
	return st;
}

/* ---- lean fast path (ctf_plan.h) ---- */

/* The stream class's event header as one run of fields with roles, or
 * NULL. */
static const ctf_fast_header *fast_header(ctf_trace_class *tc, const ctf_plan *p)
{
	if (!p || !p->lean)
		return NULL;
	const ctf_plan *l = p->lean;
	const ctf_op *ops = l->ops;
	if (l->n_ops < 2 || ops[0].kind != CTF_OP_RUN || ops[l->n_ops - 1].kind != CTF_OP_END)
		return NULL;
	ctf_fast_header h;
	memset(&h, 0, sizeof h);
	h.bits = ops[0].n;
	h.align = ops[0].align;
	for (uint32_t i = 1; i + 1 < l->n_ops; i++) {
		const ctf_op *op = &ops[i];
		bool id = op->meaning == CTF_MEANING_EVENT_ID;
		if ((op->kind != CTF_OP_INT_SPECIAL && op->kind != CTF_OP_U64_LE_SPECIAL) ||
		    (op->meaning != CTF_MEANING_NONE && !id) || (id && h.has_id) ||
		    (op->clock && h.has_clock) || op->size == 0 || op->size > 64)
			return NULL;
		ctf_fast_field f;
		f.off = op->off;
		f.size = op->size;
		f.u64le = op->kind == CTF_OP_U64_LE_SPECIAL;
		f.little_endian = op->little_endian;
		f.is_signed = op->is_signed;
		if (id) {
			h.has_id = true;
			h.id = f;
		}
		if (op->clock) {
			h.has_clock = true;
			h.clock = f;
		}
	}
	ctf_fast_header *out = tk_arena_alloc(&tc->arena, sizeof *out);
	if (out)
		*out = h;
	return out;
}

/* Appends the steps of one lean event scope; false when the scope reads
 * a field or has anything but runs and skipped strings. */
static bool fast_steps_of(const ctf_plan *p, ctf_fast_step *steps, uint32_t *n)
{
	if (!p)
		return true;
	const ctf_plan *l = p->lean;
	if (!l || !l->n_ops || l->ops[l->n_ops - 1].kind != CTF_OP_END)
		return false;
	for (uint32_t i = 0; i + 1 < l->n_ops; i++) {
		const ctf_op *op = &l->ops[i];
		if (*n == CTF_FAST_STEPS)
			return false;
		if (op->kind == CTF_OP_RUN) {
			/* an empty run before a string: the string aligns to 8 itself */
			if (op->n == 0 && op->align <= 8 &&
			    l->ops[i + 1].kind == CTF_OP_STRING_SKIP)
				continue;
			steps[*n].bits = op->n;
			steps[*n].align = op->align;
			steps[*n].string = false;
		} else if (op->kind == CTF_OP_STRING_SKIP) {
			steps[*n].bits = 0;
			steps[*n].align = 8;
			steps[*n].string = true;
		} else {
			return false; /* a field read (covered by the run), arrays, variants */
		}
		(*n)++;
	}
	return true;
}

static tk_status make_fast_paths(ctf_trace_class *tc, tk_error *err)
{
	for (size_t i = 0; i < tc->n_streams; i++) {
		ctf_stream_class *sc = tc->streams[i];
		sc->fast_header = fast_header(tc, sc->event_header_plan);
		if (!sc->fast_header)
			continue;
		size_t n_fast = 0;
		for (size_t j = 0; j < sc->n_events; j++) {
			ctf_event_class *ec = sc->events[j];
			ctf_fast_step steps[CTF_FAST_STEPS];
			uint32_t n = 0;
			if (!fast_steps_of(sc->event_context_plan, steps, &n) ||
			    !fast_steps_of(ec->context_plan, steps, &n) ||
			    !fast_steps_of(ec->payload_plan, steps, &n))
				continue;
			ctf_fast_step *v = n ? tk_arena_alloc(&tc->arena, n * sizeof *v) : NULL;
			if (n && !v)
				return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
						    "metadata: out of memory");
			if (n)
				memcpy(v, steps, n * sizeof *v);
			ec->fast_steps = v;
			ec->n_fast_steps = n;
			ec->fast = true;
			n_fast++;
		}
		/* the lean run only where all do: it never stops for a class,
		 * and other traces never pay for an attempt */
		sc->all_fast = sc->n_events && n_fast == sc->n_events;
	}
	return TK_OK;
}

tk_status ctf_plan_compile_all(ctf_trace_class *tc, tk_error *err)
{
	compiler c;
	memset(&c, 0, sizeof c);
	c.tc = tc;
	c.err = err;
	tk_status st;
	min_bits(tc->packet_header, 0);
	if ((st = compile_scope(&c, tc->packet_header, CTF_SCOPE_PACKET_HEADER,
				&tc->packet_header_plan)) != TK_OK)
		goto out;
	for (size_t i = 0; i < tc->n_streams; i++) {
		ctf_stream_class *sc = tc->streams[i];
		min_bits(sc->packet_context, 0);
		min_bits(sc->event_header, 0);
		min_bits(sc->event_context, 0);
		if ((st = compile_scope(&c, sc->packet_context, CTF_SCOPE_PACKET_CONTEXT,
					&sc->packet_context_plan)) != TK_OK ||
		    (st = compile_scope(&c, sc->event_header, CTF_SCOPE_EVENT_HEADER,
					&sc->event_header_plan)) != TK_OK ||
		    (st = compile_scope(&c, sc->event_context, CTF_SCOPE_EVENT_COMMON_CONTEXT,
					&sc->event_context_plan)) != TK_OK)
			goto out;
		for (size_t j = 0; j < sc->n_events; j++) {
			ctf_event_class *ec = sc->events[j];
			min_bits(ec->context, 0);
			min_bits(ec->payload, 0);
			if ((st = compile_scope(&c, ec->context, CTF_SCOPE_EVENT_CONTEXT,
						&ec->context_plan)) != TK_OK ||
			    (st = compile_scope(&c, ec->payload, CTF_SCOPE_EVENT_PAYLOAD,
						&ec->payload_plan)) != TK_OK)
				goto out;
		}
	}
	if ((st = make_lean_plans(tc, err)) == TK_OK)
		st = make_fast_paths(tc, err);
out:
	free(c.ops);
	free(c.done);
	return st;
}

/* ---- dump ---- */

static const char *const op_names[] = {
    [CTF_OP_RUN] = "run",
    [CTF_OP_RUN_STRUCT] = "run_struct",
    [CTF_OP_U8] = "u8",
    [CTF_OP_S8] = "s8",
    [CTF_OP_U16_LE] = "u16le",
    [CTF_OP_U16_BE] = "u16be",
    [CTF_OP_S16_LE] = "s16le",
    [CTF_OP_S16_BE] = "s16be",
    [CTF_OP_U32_LE] = "u32le",
    [CTF_OP_U32_BE] = "u32be",
    [CTF_OP_S32_LE] = "s32le",
    [CTF_OP_S32_BE] = "s32be",
    [CTF_OP_U64_LE] = "u64le",
    [CTF_OP_U64_BE] = "u64be",
    [CTF_OP_BITS_LE] = "bits_le",
    [CTF_OP_BITS_BE] = "bits_be",
    [CTF_OP_FLOAT] = "float",
    [CTF_OP_TEXT_FIXED] = "text_fixed",
    [CTF_OP_STRUCT] = "struct",
    [CTF_OP_INT_SPECIAL] = "int_special",
    [CTF_OP_U64_LE_SPECIAL] = "u64le_special",
    [CTF_OP_STRING] = "string",
    [CTF_OP_TEXT_ARRAY] = "text_array",
    [CTF_OP_TEXT_SEQ] = "text_seq",
    [CTF_OP_INT_ARRAY] = "int_array",
    [CTF_OP_INT_SEQ] = "int_seq",
    [CTF_OP_ARRAY] = "array",
    [CTF_OP_SEQ] = "seq",
    [CTF_OP_LOOP_END] = "loop_end",
    [CTF_OP_STRING_SKIP] = "string_skip",
    [CTF_OP_VARIANT] = "variant",
    [CTF_OP_VARIANT_END] = "variant_end",
    [CTF_OP_CTF2] = "ctf2",
    [CTF_OP_END] = "end",
};

static void dump_ref(char *line, size_t size, const ctf_plan_ref *r)
{
	if (!r->available)
		snprintf(line, size, " ref=unavailable");
	else if (r->root)
		snprintf(line, size, " ref=scope%u:%u", (unsigned)r->scope, (unsigned)r->slot);
	else
		snprintf(line, size, " ref=up%u:%u", (unsigned)r->up, (unsigned)r->slot);
}

size_t ctf_plan_dump(const ctf_plan *plan, char *buf, size_t size)
{
	size_t len = 0;
	char line[160], extra[64];
	for (uint32_t i = 0; plan && i < plan->n_ops; i++) {
		const ctf_op *op = &plan->ops[i];
		extra[0] = 0;
		switch ((ctf_op_kind)op->kind) {
		case CTF_OP_RUN:
		case CTF_OP_RUN_STRUCT:
			snprintf(extra, sizeof extra, " @%u members=%u..%u", (unsigned)op->dst,
				 (unsigned)op->members, (unsigned)(op->members + op->n_members));
			snprintf(line, sizeof line, "%u %s align=%u bits=%llu ops=%u%s\n", i,
				 op_names[op->kind], (unsigned)op->align, (unsigned long long)op->n,
				 (unsigned)op->k, op->kind == CTF_OP_RUN_STRUCT ? extra : "");
			break;
		case CTF_OP_STRUCT:
			snprintf(line, sizeof line, "%u struct @%u members=%u..%u\n", i,
				 (unsigned)op->dst, (unsigned)op->members,
				 (unsigned)(op->members + op->n_members));
			break;
		case CTF_OP_INT_SPECIAL:
		case CTF_OP_U64_LE_SPECIAL:
			snprintf(line, sizeof line, "%u %s @%u off=%u size=%u%s meaning=%u\n", i,
				 op_names[op->kind], (unsigned)op->dst, (unsigned)op->off,
				 (unsigned)op->size, op->clock ? " clock" : "",
				 (unsigned)op->meaning);
			break;
		case CTF_OP_SEQ:
		case CTF_OP_INT_SEQ:
		case CTF_OP_TEXT_SEQ:
		case CTF_OP_VARIANT: dump_ref(extra, sizeof extra, &op->ref);
		/* fall through */
		case CTF_OP_ARRAY:
		case CTF_OP_INT_ARRAY:
		case CTF_OP_TEXT_ARRAY:
			snprintf(line, sizeof line, "%u %s @%u n=%llu k=%u next=%u%s\n", i,
				 op_names[op->kind], (unsigned)op->dst, (unsigned long long)op->n,
				 (unsigned)op->k, (unsigned)op->next, extra);
			break;
		case CTF_OP_LOOP_END:
		case CTF_OP_END:
			snprintf(line, sizeof line, "%u %s\n", i, op_names[op->kind]);
			break;
		case CTF_OP_VARIANT_END:
			snprintf(line, sizeof line, "%u variant_end next=%u\n", i,
				 (unsigned)op->next);
			break;
		case CTF_OP_STRING:
			snprintf(line, sizeof line, "%u string @%u\n", i, (unsigned)op->dst);
			break;
		default:
			snprintf(line, sizeof line, "%u %s @%u off=%u size=%u\n", i,
				 op_names[op->kind], (unsigned)op->dst, (unsigned)op->off,
				 op->kind == CTF_OP_TEXT_FIXED ? (unsigned)op->n * 8
							       : (unsigned)op->size);
			break;
		}
		size_t l = strlen(line);
		if (len < size) {
			size_t room = size - len - 1;
			memcpy(buf + len, line, l < room ? l : room);
			buf[len + (l < room ? l : room)] = 0;
		}
		len += l;
	}
	if (size && len == 0)
		buf[0] = 0;
	return len;
}
