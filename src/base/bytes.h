/* Byte-order loads and stores through memcpy (never pointer casts), so
 * unaligned and foreign-endian input is always safe. */
#ifndef TK_BASE_BYTES_H
#define TK_BASE_BYTES_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static inline uint16_t tk_bswap16(uint16_t v)
{
	return __builtin_bswap16(v);
}
static inline uint32_t tk_bswap32(uint32_t v)
{
	return __builtin_bswap32(v);
}
static inline uint64_t tk_bswap64(uint64_t v)
{
	return __builtin_bswap64(v);
}

static inline bool tk_host_is_le(void)
{
	return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
}

static inline uint8_t tk_load_u8(const void *p)
{
	return *(const uint8_t *)p;
}

static inline uint16_t tk_load_u16(const void *p, bool swap)
{
	uint16_t v;
	memcpy(&v, p, sizeof v);
	return swap ? tk_bswap16(v) : v;
}

static inline uint32_t tk_load_u32(const void *p, bool swap)
{
	uint32_t v;
	memcpy(&v, p, sizeof v);
	return swap ? tk_bswap32(v) : v;
}

static inline uint64_t tk_load_u64(const void *p, bool swap)
{
	uint64_t v;
	memcpy(&v, p, sizeof v);
	return swap ? tk_bswap64(v) : v;
}

/* Explicit-endian loads: "swap" is derived from the host order. */
static inline uint16_t tk_load_le16(const void *p)
{
	return tk_load_u16(p, !tk_host_is_le());
}
static inline uint32_t tk_load_le32(const void *p)
{
	return tk_load_u32(p, !tk_host_is_le());
}
static inline uint64_t tk_load_le64(const void *p)
{
	return tk_load_u64(p, !tk_host_is_le());
}
static inline uint16_t tk_load_be16(const void *p)
{
	return tk_load_u16(p, tk_host_is_le());
}
static inline uint32_t tk_load_be32(const void *p)
{
	return tk_load_u32(p, tk_host_is_le());
}
static inline uint64_t tk_load_be64(const void *p)
{
	return tk_load_u64(p, tk_host_is_le());
}

static inline void tk_store_u16(void *p, uint16_t v, bool swap)
{
	if (swap)
		v = tk_bswap16(v);
	memcpy(p, &v, sizeof v);
}

static inline void tk_store_u32(void *p, uint32_t v, bool swap)
{
	if (swap)
		v = tk_bswap32(v);
	memcpy(p, &v, sizeof v);
}

static inline void tk_store_u64(void *p, uint64_t v, bool swap)
{
	if (swap)
		v = tk_bswap64(v);
	memcpy(p, &v, sizeof v);
}

/* Reverses the bit order inside one byte (perf attr bitfields written by a
 * host of the other byte order). */
static inline uint8_t tk_reverse_bits8(uint8_t b)
{
	b = (uint8_t)((b & 0xF0) >> 4 | (b & 0x0F) << 4);
	b = (uint8_t)((b & 0xCC) >> 2 | (b & 0x33) << 2);
	b = (uint8_t)((b & 0xAA) >> 1 | (b & 0x55) << 1);
	return b;
}

/* True when [off, off+len) lies within a buffer of `size` bytes, without
 * overflow. Every length read from a file goes through this. */
static inline bool tk_range_ok(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

#endif
