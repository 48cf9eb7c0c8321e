/* The plan interpreter's loop, included twice by ctf_decode.c: with
 * INTERP_EVENT 0 it runs one scope's plan (ctf_decode_plan); with 1 it
 * runs all the scopes of one event one after the other in the same loop
 * (header, then the event class it names, then the contexts and the
 * payload), so an event costs one call and one dispatch loop. Each copy
 * keeps its own label table (threaded dispatch needs a static one).
 *
 * Not a header to include anywhere else: it defines interp_scope() or
 * ctf_decode_event() (ctf_decode.h). */
#if INTERP_EVENT
tk_status ctf_decode_event(ctf_decoder *d, const ctf_stream_class *sc, uint64_t ev_off,
			   const ctf_event_class **ecp, tk_error *err)
#else
static tk_status interp_scope(ctf_decoder *d, const ctf_plan *plan, ctf_scope scope, tk_value **out,
			      tk_error *err)
#endif
{
	/* threaded dispatch: each instruction jumps straight to the next
	 * one's code (one indirect branch per instruction, each predicted
	 * on its own) */
	static const void *const labels[] = {
	    [CTF_OP_RUN] = &&L_RUN,
	    [CTF_OP_RUN_STRUCT] = &&L_RUN_STRUCT,
	    [CTF_OP_U8] = &&L_U8,
	    [CTF_OP_S8] = &&L_S8,
	    [CTF_OP_U16_LE] = &&L_U16_LE,
	    [CTF_OP_U16_BE] = &&L_U16_BE,
	    [CTF_OP_S16_LE] = &&L_S16_LE,
	    [CTF_OP_S16_BE] = &&L_S16_BE,
	    [CTF_OP_U32_LE] = &&L_U32_LE,
	    [CTF_OP_U32_BE] = &&L_U32_BE,
	    [CTF_OP_S32_LE] = &&L_S32_LE,
	    [CTF_OP_S32_BE] = &&L_S32_BE,
	    [CTF_OP_U64_LE] = &&L_U64_LE,
	    [CTF_OP_U64_BE] = &&L_U64_BE,
	    [CTF_OP_BITS_LE] = &&L_BITS_LE,
	    [CTF_OP_BITS_BE] = &&L_BITS_BE,
	    [CTF_OP_INT_SPECIAL] = &&L_INT_SPECIAL,
	    [CTF_OP_U64_LE_SPECIAL] = &&L_U64_LE_SPECIAL,
	    [CTF_OP_FLOAT] = &&L_FLOAT,
	    [CTF_OP_TEXT_FIXED] = &&L_TEXT_FIXED,
	    [CTF_OP_STRUCT] = &&L_STRUCT,
	    [CTF_OP_STRING] = &&L_STRING,
	    [CTF_OP_TEXT_ARRAY] = &&L_TEXT_LIST,
	    [CTF_OP_TEXT_SEQ] = &&L_TEXT_LIST,
	    [CTF_OP_INT_ARRAY] = &&L_INT_LIST,
	    [CTF_OP_INT_SEQ] = &&L_INT_LIST,
	    [CTF_OP_ARRAY] = &&L_ARRAY,
	    [CTF_OP_SEQ] = &&L_ARRAY,
	    [CTF_OP_LOOP_END] = &&L_LOOP_END,
	    [CTF_OP_STRING_SKIP] = &&L_STRING_SKIP,
	    [CTF_OP_VARIANT] = &&L_VARIANT,
	    [CTF_OP_VARIANT_END] = &&L_VARIANT_END,
	    [CTF_OP_CTF2] = &&L_CTF2,
	    [CTF_OP_END] = &&L_END,
	};
	_Static_assert(sizeof labels / sizeof labels[0] == CTF_OP_END + 1,
		       "one label per instruction kind");
	tk_status st;
	tk_value *base;
	ctf_frame *f;
	const ctf_op *ops, *op;
	const uint8_t *const buf = d->buf;
	uint64_t run = 0; /* bit position of the current run's start */
	uint64_t x, np;
	vm m;
#if INTERP_EVENT
	const ctf_event_class *ec = *ecp;
	ctf_scope scope = CTF_SCOPE_EVENT_HEADER;
	const ctf_plan *plan = sc->event_header_plan;
	if (ec) {
		/* the caller read the header (ctf_read_header_fast): on to
		 * the scopes after it */
		if (!(plan = next_event_scope(sc, ec, &scope)))
			return TK_OK;
		if (d->lean)
			plan = plan->lean;
	} else if (d->lean && plan) {
		plan = plan->lean;
	}
	if (UNLIKELY(!plan)) {
		/* no header: the event class is the stream class's only one */
		if ((st = event_class_of(d, sc, ev_off, &ec, err)) != TK_OK)
			return st;
		*ecp = ec;
		if (!(plan = next_event_scope(sc, ec, &scope)))
			return TK_OK;
		if (d->lean)
			plan = plan->lean;
	}
	d->what = scope_what[scope];
start_scope:
#endif
	if (UNLIKELY(plan->max_frames > d->frames_cap) && !grow_frames(d, plan->max_frames))
		return nomem(err);
	base = alloc_values(d, plan->n_values);
	if (UNLIKELY(!base))
		return nomem(err);
	d->roots[scope] = base;
#if !INTERP_EVENT
	*out = base;
#endif
	f = d->frames;
	f->base = base;
	ops = op = plan->ops;
#define AT(op) (buf + ((run + (op)->off) >> 3))
#define NEXT   goto *labels[op->kind]
/* an instruction kept out of line: it may move op, base and f */
#define COLD(call)                                                                                 \
	do {                                                                                       \
		m.op = op;                                                                         \
		m.base = base;                                                                     \
		m.f = f;                                                                           \
		if ((st = (call)) != TK_OK)                                                        \
			return st;                                                                 \
		op = m.op;                                                                         \
		base = m.base;                                                                     \
		f = m.f;                                                                           \
	} while (0)
	NEXT;
L_RUN:
L_RUN_STRUCT:
	np = align_up(d->pos, op->align);
	if (UNLIKELY(np + op->n > d->limit_bits || np < d->pos))
		return run_fail(d, op->full ? op->full : op, err);
	run = np;
	d->pos = np + op->n;
	if (op->kind == CTF_OP_RUN_STRUCT)
		set_struct(base, op);
	op++;
	NEXT;
L_U8:
	set_int(base + op->dst, op, *AT(op));
	op++;
	NEXT;
L_S8:
	set_int(base + op->dst, op, (uint64_t)(int64_t)(int8_t)*AT(op));
	op++;
	NEXT;
L_U16_LE:
	set_int(base + op->dst, op, tk_load_le16(AT(op)));
	op++;
	NEXT;
L_U16_BE:
	set_int(base + op->dst, op, tk_load_be16(AT(op)));
	op++;
	NEXT;
L_S16_LE:
	set_int(base + op->dst, op, (uint64_t)(int64_t)(int16_t)tk_load_le16(AT(op)));
	op++;
	NEXT;
L_S16_BE:
	set_int(base + op->dst, op, (uint64_t)(int64_t)(int16_t)tk_load_be16(AT(op)));
	op++;
	NEXT;
L_U32_LE:
	set_int(base + op->dst, op, tk_load_le32(AT(op)));
	op++;
	NEXT;
L_U32_BE:
	set_int(base + op->dst, op, tk_load_be32(AT(op)));
	op++;
	NEXT;
L_S32_LE:
	set_int(base + op->dst, op, (uint64_t)(int64_t)(int32_t)tk_load_le32(AT(op)));
	op++;
	NEXT;
L_S32_BE:
	set_int(base + op->dst, op, (uint64_t)(int64_t)(int32_t)tk_load_be32(AT(op)));
	op++;
	NEXT;
L_U64_LE:
	set_int(base + op->dst, op, tk_load_le64(AT(op)));
	op++;
	NEXT;
L_U64_BE:
	set_int(base + op->dst, op, tk_load_be64(AT(op)));
	op++;
	NEXT;
L_BITS_LE:
L_BITS_BE:
	x = read_bits(d, run + op->off, op->size, op->kind == CTF_OP_BITS_LE);
	set_int(base + op->dst, op, op->is_signed ? sign_extend(x, op->size) : x);
	op++;
	NEXT;
L_INT_SPECIAL:
	x = read_bits(d, run + op->off, op->size, op->little_endian);
	if (op->is_signed)
		x = sign_extend(x, op->size);
	set_int(base + op->dst, op, x);
	int_special(d, op, x);
	op++;
	NEXT;
L_U64_LE_SPECIAL:
	x = tk_load_le64(AT(op));
	set_int(base + op->dst, op, x);
	int_special(d, op, x);
	op++;
	NEXT;
L_FLOAT:
	set_float(base + op->dst, op, read_bits(d, run + op->off, op->size, op->little_endian));
	op++;
	NEXT;
L_TEXT_FIXED:
	set_text(base + op->dst, op, AT(op));
	op++;
	NEXT;
L_STRUCT:
	set_struct(base, op);
	op++;
	NEXT;
L_STRING:
	/* strings are byte-aligned: the common case, a NUL before the content
	 * end, without a call; decode_string reports the rest */
	np = (d->pos + 7) & ~(uint64_t)7;
	if (LIKELY(np < d->limit_bits)) {
		const uint8_t *p = buf + (np >> 3);
		size_t avail = (size_t)((d->limit_bits - np) >> 3);
		size_t len = find_nul(p, avail);
		if (LIKELY(len < avail)) {
			tk_value *v = base + op->dst;
			v->cls = op->cls;
			v->v.str.ptr = (const char *)p;
			v->v.str.len = len;
			d->pos = np + ((uint64_t)len + 1) * 8;
			op++;
			NEXT;
		}
	}
	base[op->dst].cls = op->cls;
	if ((st = decode_string(d, base + op->dst, err)) != TK_OK)
		return st;
	op++;
	NEXT;
L_STRING_SKIP:
	np = (d->pos + 7) & ~(uint64_t)7;
	if (LIKELY(np < d->limit_bits)) {
		size_t avail = (size_t)((d->limit_bits - np) >> 3);
		size_t len = find_nul(buf + (np >> 3), avail);
		if (LIKELY(len < avail)) {
			d->pos = np + ((uint64_t)len + 1) * 8;
			op++;
			NEXT;
		}
	}
	{
		tk_value unused;
		if ((st = decode_string(d, &unused, err)) != TK_OK)
			return st;
	}
	op++;
	NEXT;
L_TEXT_LIST:
	COLD(op_text(d, &m, err));
	NEXT;
L_INT_LIST:
	COLD(op_int_list(d, &m, err));
	NEXT;
L_ARRAY:
	COLD(op_array(d, ops, &m, err));
	NEXT;
L_LOOP_END:
	/* a compound element was built in its own frame: its value goes to
	 * the contiguous element array */
	if (f->k)
		f->items[f->i] = base[0];
	if (++f->i < f->n) {
		f->base = base = f->k ? f->nest + f->i * f->k : f->items + f->i;
		op = f->body;
	} else {
		f--;
		base = f->base;
		op++;
	}
	NEXT;
L_VARIANT:
	COLD(op_variant(d, ops, &m, err));
	NEXT;
L_CTF2:
	COLD(ctf2_op(d, &m, err));
	NEXT;
L_VARIANT_END:
	f--;
	base = f->base;
	op = ops + op->next;
	NEXT;
L_END:
#if !INTERP_EVENT
	return TK_OK;
#else
	/* event mode: on to the next scope of the event */
	if (scope == CTF_SCOPE_EVENT_HEADER) {
		if ((st = event_class_of(d, sc, ev_off, &ec, err)) != TK_OK)
			return st;
		*ecp = ec;
	}
	if (!(plan = next_event_scope(sc, ec, &scope)))
		return TK_OK;
	if (d->lean)
		plan = plan->lean;
	d->what = scope_what[scope];
	goto start_scope;
#endif
#undef COLD
#undef NEXT
#undef AT
}
