/* The CTF_OP_CTF2 instruction: CTF 2 classes that have no fast path in
 * the plan interpreter (CTF2-SPEC-2.0): variable-length (LEB128) integers,
 * 16- and 128-bit floating point numbers, UTF-16/32 strings and blobs.
 * Rare in traces, so one out-of-line instruction serves them all.
 *
 * Not a header to include anywhere else: ctf_decode.c includes it once,
 * after its helpers (short_read, seq_length, dalloc, int_special). */
#include <math.h>

/* LEB128: 7 bits a byte, least significant group first. Values of more
 * than 64 bits are kept as their encoded bytes (a BYTES value of the
 * class's big_model), never truncated. */
static tk_status ctf2_leb128(ctf_decoder *d, const ctf_op *op, tk_value *v, tk_error *err)
{
	const ctf_fc *fc = op->fc;
	uint64_t np = align_up(d->pos, op->align < 8 ? 8 : op->align);
	if (np > d->limit_bits)
		return short_read(d, "variable-length integer", 8, err);
	d->pos = np;
	const uint8_t *p = d->buf + np / 8;
	size_t avail = (size_t)((d->limit_bits - np) / 8), n = 0;
	uint64_t x = 0;
	for (;;) {
		if (n >= avail)
			return tk_error_set(err, TK_ERR_FORMAT, d->file_off + np / 8,
					    "cannot decode %s: variable-length integer not ended "
					    "before the end of the packet content",
					    d->what);
		uint8_t b = p[n];
		if (n < 10)
			x |= (uint64_t)(b & 0x7F) << (7 * n);
		n++;
		if (!(b & 0x80))
			break;
	}
	d->pos = np + (uint64_t)n * 8;
	bool big;
	uint8_t last = p[n - 1] & 0x7F;
	if (fc->varint == 2) {
		big = n > 10 || (n == 10 && last != 0 && last != 0x7F);
		if (!big && n < 10 && (last & 0x40))
			x |= ~(uint64_t)0 << (7 * n); /* sign extension */
	} else {
		big = n > 10 || (n == 10 && last > 1);
	}
	if (big) {
		if (op->clock || op->meaning != CTF_MEANING_NONE)
			return tk_error_set(
			    err, TK_ERR_FORMAT, d->file_off + np / 8,
			    "cannot decode %s: variable-length integer of %zu bytes "
			    "does not fit the 64 bits its role needs",
			    d->what, n);
		v->cls = fc->big_model;
		v->v.str.ptr = (const char *)p;
		v->v.str.len = n;
		return TK_OK;
	}
	v->v.u = x;
	int_special(d, op, x);
	return TK_OK;
}

static double half_to_double(uint64_t h)
{
	int e = (int)((h >> 10) & 0x1F);
	double m = (double)(h & 0x3FF);
	double r = e == 0    ? ldexp(m, -24)
		   : e == 31 ? (m ? NAN : INFINITY)
			     : ldexp(1024.0 + m, e - 25);
	return (h >> 15) & 1 ? -r : r;
}

static double quad_to_double(uint64_t hi, uint64_t lo)
{
	int e = (int)((hi >> 48) & 0x7FFF);
	/* the 112-bit fraction's top 64 bits: more than a double keeps */
	uint64_t top = (hi << 16) | (lo >> 48);
	double m = ldexp((double)top, -64);
	double r = e == 0        ? ldexp(m, 1 - 16383)
		   : e == 0x7FFF ? ((top || (lo << 16)) ? NAN : INFINITY)
				 : ldexp(1.0 + m, e - 16383);
	return (hi >> 63) ? -r : r;
}

static tk_status ctf2_float(ctf_decoder *d, const ctf_op *op, tk_value *v, tk_error *err)
{
	unsigned size = op->fc->size;
	uint64_t np = align_up(d->pos, op->align);
	if (np > d->limit_bits || d->limit_bits - np < size)
		return short_read(d, "floating point number", size, err);
	d->pos = np + size;
	if (size == 16) {
		v->v.f = half_to_double(read_bits(d, np, 16, op->little_endian));
	} else {
		bool le = op->little_endian;
		uint64_t a = read_bits(d, np, 64, le), b = read_bits(d, np + 64, 64, le);
		v->v.f = le ? quad_to_double(b, a) : quad_to_double(a, b);
	}
	return TK_OK;
}

static uint32_t ctf2_unit(const uint8_t *p, unsigned unit, bool be)
{
	if (unit == 2)
		return be ? tk_load_be16(p) : tk_load_le16(p);
	return be ? tk_load_be32(p) : tk_load_le32(p);
}

static size_t ctf2_put_utf8(char *o, uint32_t cp)
{
	if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		cp = 0xFFFD; /* not a scalar value: the replacement character */
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xC0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xE0 | cp >> 12);
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		o[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (char)(0xF0 | cp >> 18);
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	o[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* UTF-16/32 code units at p[0..nunits) -> UTF-8 in the event's bump
 * region, up to the first NUL unit. */
static tk_status ctf2_utf(ctf_decoder *d, const uint8_t *p, size_t nunits, unsigned unit, bool be,
			  tk_value *v, tk_error *err)
{
	char *o = dalloc(d, nunits * 4 + 1);
	if (!o)
		return nomem(err);
	size_t n = 0;
	for (size_t i = 0; i < nunits; i++) {
		uint32_t c = ctf2_unit(p + i * unit, unit, be);
		if (!c)
			break;
		if (unit == 2 && c >= 0xD800 && c <= 0xDBFF && i + 1 < nunits) {
			uint32_t lo = ctf2_unit(p + (i + 1) * unit, unit, be);
			if (lo >= 0xDC00 && lo <= 0xDFFF) {
				c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
				i++;
			}
		}
		n += ctf2_put_utf8(o + n, c);
	}
	o[n] = 0;
	v->v.str.ptr = o;
	v->v.str.len = n;
	return TK_OK;
}

static tk_status ctf2_string(ctf_decoder *d, const ctf_op *op, tk_value *v, tk_error *err)
{
	const ctf_fc *fc = op->fc;
	unsigned unit = fc->enc_unit;
	uint64_t np = align_up(d->pos, 8);
	if (np > d->limit_bits)
		return short_read(d, "string", 8, err);
	const uint8_t *p = d->buf + np / 8;
	size_t nunits = (size_t)((d->limit_bits - np) / 8) / unit, k;
	for (k = 0; k < nunits; k++)
		if (!ctf2_unit(p + k * unit, unit, false))
			break;
	if (k == nunits)
		return tk_error_set(
		    err, TK_ERR_FORMAT, d->file_off + np / 8,
		    "cannot decode %s: string not terminated before the end of the packet content",
		    d->what);
	d->pos = np + (uint64_t)(k + 1) * unit * 8;
	return ctf2_utf(d, p, k, unit, fc->enc_be, v, err);
}

/* Blobs and static/dynamic-length strings: `n` bytes. */
static tk_status ctf2_bytes(ctf_decoder *d, const ctf_frame *f, const ctf_op *op, tk_value *v,
			    tk_error *err)
{
	const ctf_fc *fc = op->fc;
	uint64_t n = op->n;
	tk_status st;
	if (fc->type == CTF_FC_SEQUENCE && (st = seq_length(d, f, op, &n, err)) != TK_OK)
		return st;
	uint64_t np = align_up(d->pos, 8);
	if (np > d->limit_bits || (d->limit_bits - np) / 8 < n)
		return tk_error_set(err, TK_ERR_FORMAT, d->file_off + d->pos / 8,
				    "cannot decode %s: %s of %llu bytes goes past the end of the "
				    "packet content",
				    d->what, fc->is_blob ? "blob" : "string",
				    (unsigned long long)n);
	const uint8_t *p = d->buf + np / 8;
	d->pos = np + n * 8;
	if (fc->is_blob) {
		v->v.str.ptr = (const char *)p;
		v->v.str.len = (size_t)n;
		return TK_OK;
	}
	return ctf2_utf(d, p, (size_t)n / fc->enc_unit, fc->enc_unit, fc->enc_be, v, err);
}

static __attribute__((noinline)) tk_status ctf2_op(ctf_decoder *d, vm *m, tk_error *err)
{
	const ctf_op *op = m->op;
	const ctf_fc *fc = op->fc;
	tk_value *v = m->base + op->dst;
	tk_status st;
	v->cls = op->cls;
	switch (fc->type) {
	case CTF_FC_INT:
	case CTF_FC_ENUM: st = ctf2_leb128(d, op, v, err); break;
	case CTF_FC_FLOAT: st = ctf2_float(d, op, v, err); break;
	case CTF_FC_STRING: st = ctf2_string(d, op, v, err); break;
	default: st = ctf2_bytes(d, m->f, op, v, err); break;
	}
	if (st == TK_OK)
		m->op++;
	return st;
}
