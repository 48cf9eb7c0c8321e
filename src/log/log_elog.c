/* The log as VPP's elog serialization (serialize_elog_main): what c2cpel
 * and tracekit's elog reader read. Big-endian integers, 64-bit values as
 * two big-endian words low word first, cstrings with vppinfra's "likely
 * small" length, events in time order with f64 seconds since init.
 * Async-signal-safe with an fd output. */
#include <string.h>

#include "log/log_impl.h"

static void put_u64(tk_lg_out *o, uint64_t v)
{
	tk_lg_out_be32(o, (uint32_t)v);
	tk_lg_out_be32(o, (uint32_t)(v >> 32));
}

/* serialize_likely_small_unsigned_integer */
static void put_small(tk_lg_out *o, uint64_t x)
{
	if (x < 128) {
		tk_lg_out_u8(o, (uint8_t)(2 * x + 1));
		return;
	}
	uint64_t r = x - 128;
	if (r < (1u << 14)) {
		uint8_t b[2] = {(uint8_t)(((r & 63) << 2) | 2), (uint8_t)(r >> 6)};
		tk_lg_out_bytes(o, b, 2);
		return;
	}
	r -= 1u << 14;
	if (r < (1u << 29)) {
		uint8_t b[4] = {(uint8_t)(((r & 31) << 3) | 4), (uint8_t)(r >> 5),
				(uint8_t)(r >> 13), (uint8_t)(r >> 21)};
		tk_lg_out_bytes(o, b, 4);
		return;
	}
	tk_lg_out_u8(o, 0);
	uint8_t b[8];
	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)(x >> (8 * i));
	tk_lg_out_bytes(o, b, 8);
}

static void put_cstring(tk_lg_out *o, const char *s, size_t n)
{
	put_small(o, n);
	tk_lg_out_bytes(o, s, n);
}

static const char *elog_args(char k)
{
	switch (k) {
	case TK_LOG_U32: return "i4";
	case TK_LOG_U64:
	case TK_LOG_I64: return "i8";
	case TK_LOG_F64: return "f8";
	case TK_LOG_STR: return "s0";
	default: return "T4";
	}
}

static void put_f64(tk_lg_out *o, double d)
{
	uint64_t bits;
	memcpy(&bits, &d, 8);
	put_u64(o, bits);
}

bool tk_lg_emit_elog(tk_lg_out *o, const tk_lg_view *v, tk_lg_iter *it)
{
	static const char magic[] = "elog v0";
	tk_lg_out_be32(o, 7);
	tk_lg_out_bytes(o, magic, 7);
	uint64_t slots = v->n_rings ? (uint64_t)v->n_rings * (v->rings[0].mask + 1) : 0;
	tk_lg_out_be32(o, slots > UINT32_MAX ? UINT32_MAX : (uint32_t)slots);
	/* serialize time, then init time: {os ns, cpu ticks} each */
	put_u64(o, v->end_real_ns ? v->end_real_ns : v->init_real_ns);
	put_u64(o, v->end_real_ns ? v->end_ticks : v->init_ticks);
	put_u64(o, v->init_real_ns);
	put_u64(o, v->init_ticks);
	tk_lg_out_be32(o, v->n_types);
	for (unsigned i = 0; i < v->n_types; i++) {
		const tk_lg_vtype *t = &v->types[i];
		/* a type never committed keeps its index with no arguments */
		const char *f = t->format ? t->format : "(unregistered)";
		put_cstring(o, f, strlen(f));
		char args[3 * TK_LOG_MAX_ARGS + 1];
		size_t n = 0;
		for (unsigned k = 0; k < t->n_args; k++) {
			memcpy(args + n, elog_args(t->kinds[k]), 2);
			n += 2;
		}
		put_cstring(o, args, n);
		tk_lg_out_be32(o, i + 1);
		tk_lg_out_be32(o, 0);
	}
	tk_lg_out_be32(o, v->n_tracks);
	for (unsigned i = 0; i < v->n_tracks; i++) {
		const char *name = v->tracks[i] ? v->tracks[i] : "";
		put_cstring(o, name, strlen(name));
	}
	tk_lg_out_be32(o, v->strtab_len);
	tk_lg_out_bytes(o, v->strtab, v->strtab_len);
	uint64_t count_at = o->pos;
	tk_lg_out_be32(o, 0);
	uint32_t count = 0;
	tk_lg_iter_init(it, v, -1);
	tk_lg_event e;
	while (count < UINT32_MAX && tk_lg_iter_next(it, &e)) {
		const tk_lg_vtype *t = &v->types[e.type];
		tk_lg_out_be16(o, (uint16_t)e.type);
		tk_lg_out_be16(o, (uint16_t)e.track);
		put_f64(o, e.seconds);
		unsigned wi = 0;
		for (unsigned k = 0; k < t->n_args; k++) {
			switch (t->kinds[k]) {
			case TK_LOG_U32:
			case TK_LOG_SREF: tk_lg_out_be32(o, (uint32_t)e.w[wi++]); break;
			case TK_LOG_STR: {
				const char *s = (const char *)&e.w[wi];
				put_cstring(o, s, strnlen(s, TK_LOG_STR_MAX));
				wi += LG_STR_WORDS;
				break;
			}
			default: put_u64(o, e.w[wi++]); break;
			}
		}
		count++;
	}
	uint8_t b[4] = {(uint8_t)(count >> 24), (uint8_t)(count >> 16), (uint8_t)(count >> 8),
			(uint8_t)count};
	tk_lg_out_patch(o, count_at, b, 4);
	return !o->failed;
}
