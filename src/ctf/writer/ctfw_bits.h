/* Bit writer for CTF packets: places integers at any bit position in either
 * CTF bit order, with a fast path for byte-aligned whole-byte integers.
 *
 * CTF bit order: in a little-endian trace a field fills each byte from its
 * least significant bit and successive fields go low to high; in a big-endian
 * trace bytes fill from the most significant bit, fields high to low.
 * Alignment is relative to the start of the packet (buf[0]).
 *
 * The writer never writes past cap_bits: a write that does not fit sets
 * `overflow` and writes nothing, so the caller can roll back to a saved
 * position, make room and encode the event again. */
#ifndef TK_CTFW_BITS_H
#define TK_CTFW_BITS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/bytes.h"

typedef struct ctfw_bits {
	uint8_t *buf;
	uint64_t pos; /* bits from the start of the packet */
	uint64_t cap_bits;
	bool big_endian;
	bool overflow;
} ctfw_bits;

static inline bool ctfw_bits_align(ctfw_bits *b, unsigned align)
{
	if (align > 1) {
		uint64_t p = (b->pos + align - 1) & ~(uint64_t)(align - 1);
		if (p > b->cap_bits) {
			b->overflow = true;
			return false;
		}
		/* Padding bits of a partly used byte must be zero: clear them. */
		if ((b->pos & 7) != 0) {
			unsigned used = (unsigned)(b->pos & 7);
			uint8_t *byte = &b->buf[b->pos >> 3];
			*byte = b->big_endian ? (uint8_t)(*byte & (0xFF00u >> used))
					      : (uint8_t)(*byte & ((1u << used) - 1));
		}
		b->pos = p;
	}
	return true;
}

/* Slow path: any size 1..64 at any bit position. */
static inline void ctfw_bits_put_slow(ctfw_bits *b, uint64_t v, unsigned size)
{
	uint64_t pos = b->pos;
	unsigned left = size;
	if (size < 64)
		v &= (UINT64_C(1) << size) - 1;
	while (left > 0) {
		unsigned off = (unsigned)(pos & 7);
		unsigned k = 8 - off < left ? 8 - off : left;
		uint8_t *byte = &b->buf[pos >> 3];
		unsigned mask = (1u << k) - 1;
		unsigned chunk;
		unsigned shift;
		if (b->big_endian) {
			chunk = (unsigned)(v >> (left - k)) & mask;
			shift = 8 - off - k;
		} else {
			chunk = (unsigned)(v >> (size - left)) & mask;
			shift = off;
		}
		*byte = (uint8_t)((*byte & ~(mask << shift)) | (chunk << shift));
		pos += k;
		left -= k;
	}
	b->pos = pos;
}

/* Writes the low `size` bits of v after aligning to `align` bits. */
static inline void ctfw_bits_put(ctfw_bits *b, uint64_t v, unsigned size, unsigned align)
{
	if (!ctfw_bits_align(b, align))
		return;
	if (b->pos + size > b->cap_bits) {
		b->overflow = true;
		return;
	}
	if ((b->pos & 7) == 0 && (size & 7) == 0) {
		uint8_t *p = b->buf + (b->pos >> 3);
		bool swap = b->big_endian == tk_host_is_le();
		switch (size) {
		case 8: *p = (uint8_t)v; break;
		case 16: tk_store_u16(p, (uint16_t)v, swap); break;
		case 32: tk_store_u32(p, (uint32_t)v, swap); break;
		case 64: tk_store_u64(p, v, swap); break;
		default: ctfw_bits_put_slow(b, v, size); return;
		}
		b->pos += size;
		return;
	}
	ctfw_bits_put_slow(b, v, size);
}

/* Appends raw bytes at a byte boundary (strings, uuid). */
static inline void ctfw_bits_put_bytes(ctfw_bits *b, const void *p, size_t n)
{
	if (!ctfw_bits_align(b, 8))
		return;
	if (n > (b->cap_bits - b->pos) / 8) {
		b->overflow = true;
		return;
	}
	if (n)
		memcpy(b->buf + (b->pos >> 3), p, n);
	b->pos += (uint64_t)n * 8;
}

#endif
