/* Field decoder: reads one scope (a struct field class) from packet bytes
 * into tk_value trees in an arena. Bit positions are relative to the packet
 * start (CTF alignment is relative to the packet). Integer fields mapped to
 * a clock update `clock` with babeltrace's one-wrap rule; fields with a
 * meaning store their value in `meaning_val`. No allocation outside the
 * arena. Not thread-safe. */
#ifndef TK_CTF_DECODE_H
#define TK_CTF_DECODE_H

#include "base/arena.h"
#include "ctf/ctf_meta.h"

#define CTF_DECODE_MAX_DEPTH 64

typedef struct ctf_decoder {
	const uint8_t *buf;  /* packet start */
	uint64_t limit_bits; /* content end, in bits from buf */
	uint64_t pos;        /* bit position */
	uint64_t file_off;   /* byte offset of buf in the file (errors) */
	tk_arena *arena;
	/* bump region for event values (reset per event): no call per
	 * allocation; the arena takes over when it is full. NULL = arena only */
	uint8_t *fast;
	size_t fast_used, fast_cap;
	const tk_value *roots[CTF_SCOPE_COUNT];
	const tk_value *stack[CTF_DECODE_MAX_DEPTH];
	size_t depth;
	uint64_t clock; /* current default clock value (cycles) */
	bool clock_set;
	uint64_t meaning_val[CTF_MEANING_EVENT_ID + 1];
	bool meaning_set[CTF_MEANING_EVENT_ID + 1];
	const char *what; /* scope being decoded, for errors */
} ctf_decoder;

/* Decodes the struct fc at the current position into *out (arena). */
tk_status ctf_decode_scope(ctf_decoder *d, const ctf_fc *fc, ctf_scope scope, tk_value **out,
			   tk_error *err);

/* Sets the clock to a raw value read elsewhere (packet timestamp_begin). */
static inline void ctf_decoder_set_clock(ctf_decoder *d, uint64_t v)
{
	d->clock = v;
	d->clock_set = true;
}

/* Computes min_bits for a tree (called once per class). */
uint64_t ctf_fc_min_bits(ctf_fc *fc, unsigned depth);

#endif
