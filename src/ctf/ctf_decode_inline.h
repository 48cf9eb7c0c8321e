/* Decoder helpers inlined into both the interpreter (ctf_decode.c) and
 * the stream reader's lean run (ctf_stream.c): bit reads, the string scan
 * and the lean fast path (ctf_plan.h), which has no reason to cost a call
 * per event. Only for src/ctf. */
#ifndef TK_CTF_DECODE_INLINE_H
#define TK_CTF_DECODE_INLINE_H

#include <string.h>

#include "base/bytes.h"
#include "ctf/ctf_decode.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#define LIKELY(x)   __builtin_expect(!!(x), 1)

static inline uint64_t align_up(uint64_t pos, uint64_t align)
{
	return (pos + align - 1) & ~(align - 1);
}

/* Reads `size` bits at bit `pos` of d->buf. The caller checked that they
 * lie before d->limit_bits; whole 64-bit loads are used when the 8 bytes
 * stay within the content's last byte. */
static inline uint64_t read_bits(const ctf_decoder *d, uint64_t pos, unsigned size, bool le)
{
	const uint8_t *p = d->buf + (pos >> 3);
	unsigned sh = (unsigned)(pos & 7);
	if (sh + size <= 64 && (pos >> 3) + 8 <= (d->limit_bits + 7) >> 3) {
		if (le) {
			uint64_t w = tk_load_le64(p) >> sh;
			return size == 64 ? w : w & (((uint64_t)1 << size) - 1);
		}
		return (tk_load_be64(p) << sh) >> (64 - size);
	}
	unsigned nbytes = (sh + size + 7) / 8;
	unsigned __int128 acc = 0;
	if (le) {
		for (unsigned i = nbytes; i-- > 0;)
			acc = (acc << 8) | p[i];
		acc >>= sh;
	} else {
		for (unsigned i = 0; i < nbytes; i++)
			acc = (acc << 8) | p[i];
		acc >>= nbytes * 8 - sh - size;
	}
	uint64_t mask = size == 64 ? UINT64_MAX : (((uint64_t)1 << size) - 1);
	return (uint64_t)acc & mask;
}

static inline uint64_t sign_extend(uint64_t v, unsigned size)
{
	if (size < 64 && (v >> (size - 1)) & 1)
		v |= ~(uint64_t)0 << size;
	return v;
}

/* Index of the first NUL in p[0..n), n when there is none. 16 bytes at a
 * time while 16 remain (never reading past p + n), then byte by byte:
 * most strings are short, and a call to memchr costs as much as the
 * scan. */
static inline size_t find_nul(const uint8_t *p, size_t n)
{
	size_t i = 0;
#if defined(__SSE2__)
	const __m128i zero = _mm_setzero_si128();
	for (; n - i >= 16; i += 16) {
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
		unsigned mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(b, zero));
		if (mask)
			return i + (size_t)__builtin_ctz(mask);
	}
#else
	for (; n - i >= 8; i += 8) {
		uint64_t w = tk_load_le64(p + i);
		uint64_t z = (w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL;
		if (z)
			return i + (size_t)__builtin_ctzll(z) / 8;
	}
#endif
	for (; i < n; i++)
		if (!p[i])
			return i;
	return n;
}

/* The clock after a field of `size` bits with babeltrace's one-wrap rule
 * (update_clock on a value). */
static inline uint64_t next_clock(uint64_t clock, uint64_t v, unsigned size)
{
	if (size == 64)
		return v;
	uint64_t mask = ((uint64_t)1 << size) - 1;
	if (v < (clock & mask))
		clock += mask + 1;
	return (clock & ~mask) | v;
}

/* A header field of the lean fast path at run start `run`. */
static inline __attribute__((always_inline)) uint64_t fast_field(const ctf_decoder *d, uint64_t run,
								 const ctf_fast_field *f)
{
	if (LIKELY(f->u64le))
		return tk_load_le64(d->buf + ((run + f->off) >> 3));
	uint64_t x = read_bits(d, run + f->off, f->size, f->little_endian);
	return f->is_signed ? sign_extend(x, f->size) : x;
}

/* The event header of a stream class with a fast_header, read without
 * the interpreter into *fh (nothing in d changes): false when the header
 * does not fit the packet or names no known event class (the interpreter
 * then reports the error). */
typedef struct ctf_fast_hdr {
	uint64_t pos, clock, id;
	const ctf_event_class *ec;
} ctf_fast_hdr;

static inline __attribute__((always_inline)) bool
ctf_read_header_fast(const ctf_decoder *d, const ctf_stream_class *sc, ctf_fast_hdr *fh)
{
	const ctf_fast_header *h = sc->fast_header;
	uint64_t pos = d->pos;
	uint64_t np = align_up(pos, h->align);
	if (UNLIKELY(np + h->bits > d->limit_bits || np < pos))
		return false;
	uint64_t clock = d->clock, id = 0;
	if (h->has_clock)
		clock = next_clock(clock, fast_field(d, np, &h->clock), h->clock.size);
	if (h->has_id)
		id = fast_field(d, np, &h->id);
	int32_t k;
	if (h->has_id) {
		if (UNLIKELY(id >= sc->by_id_len || (k = sc->by_id[id]) < 0))
			return false;
		fh->ec = sc->events[k];
	} else if (sc->n_events == 1) {
		fh->ec = sc->events[0];
	} else {
		return false;
	}
	fh->pos = np + h->bits;
	fh->clock = clock;
	fh->id = id;
	return true;
}

/* Leaves d as the interpreter leaves it after the event header of fh:
 * position, clock and event id. */
static inline __attribute__((always_inline)) void
ctf_commit_header_fast(ctf_decoder *d, const ctf_stream_class *sc, const ctf_fast_hdr *fh)
{
	const ctf_fast_header *h = sc->fast_header;
	d->pos = fh->pos;
	if (h->has_clock) {
		d->clock = fh->clock;
		d->clock_set = true;
	}
	if (h->has_id) {
		d->meaning_val[CTF_MEANING_EVENT_ID] = fh->id;
		d->meaning_set[CTF_MEANING_EVENT_ID] = true;
	}
}

/* The lean fast path for a stream class with a fast_header: decodes one
 * event without the interpreter and returns true (*ec set; position,
 * clock and event id as ctf_decode_event leaves them; no values), or
 * returns false with nothing changed when the event needs the
 * interpreter (its class does not qualify, an unknown id, or it does not
 * fit the packet: the interpreter then reports the error). */
static inline __attribute__((always_inline)) bool
ctf_decode_event_fast(ctf_decoder *d, const ctf_stream_class *sc, const ctf_event_class **ecp)
{
	ctf_fast_hdr fh;
	if (!ctf_read_header_fast(d, sc, &fh))
		return false;
	const ctf_event_class *ec = fh.ec;
	if (UNLIKELY(!ec->fast))
		return false;
	const uint64_t limit = d->limit_bits;
	uint64_t pos = fh.pos, np;
	for (uint32_t i = 0; i < ec->n_fast_steps; i++) {
		const ctf_fast_step *s = &ec->fast_steps[i];
		if (s->string) {
			np = (pos + 7) & ~(uint64_t)7;
			if (UNLIKELY(np >= limit))
				return false;
			size_t avail = (size_t)((limit - np) >> 3);
			size_t len = find_nul(d->buf + (np >> 3), avail);
			if (UNLIKELY(len == avail))
				return false;
			pos = np + ((uint64_t)len + 1) * 8;
		} else {
			np = align_up(pos, s->align);
			if (UNLIKELY(np + s->bits > limit || np < pos))
				return false;
			pos = np + s->bits;
		}
	}
	fh.pos = pos;
	ctf_commit_header_fast(d, sc, &fh);
	*ecp = ec;
	return true;
}

#endif
