/* Test-only builders for crafted perf.data bytes (header, attrs, records)
 * in either byte order. Header-only so each perf unit test can use it
 * without a build change. */
#ifndef TK_TEST_PERF_CRAFT_H
#define TK_TEST_PERF_CRAFT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "tracekit/tracekit.h"

typedef struct pc_buf {
	uint8_t *p;
	size_t n, cap;
	bool be; /* write big-endian (2ELIFREP) */
} pc_buf;

static inline bool pc_swap(const pc_buf *b)
{
	return b->be == tk_host_is_le();
}

static inline void pc_bytes(pc_buf *b, const void *src, size_t n)
{
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->n + n)
			cap *= 2;
		b->p = realloc(b->p, cap);
		b->cap = cap;
	}
	if (src)
		memcpy(b->p + b->n, src, n);
	else
		memset(b->p + b->n, 0, n);
	b->n += n;
}

static inline void pc_u16(pc_buf *b, uint16_t v)
{
	uint8_t t[2];
	tk_store_u16(t, v, pc_swap(b));
	pc_bytes(b, t, 2);
}
static inline void pc_u32(pc_buf *b, uint32_t v)
{
	uint8_t t[4];
	tk_store_u32(t, v, pc_swap(b));
	pc_bytes(b, t, 4);
}
static inline void pc_u64(pc_buf *b, uint64_t v)
{
	uint8_t t[8];
	tk_store_u64(t, v, pc_swap(b));
	pc_bytes(b, t, 8);
}
static inline void pc_zero(pc_buf *b, size_t n)
{
	pc_bytes(b, NULL, n);
}
static inline void pc_put_u64(pc_buf *b, size_t at, uint64_t v)
{
	tk_store_u64(b->p + at, v, pc_swap(b));
}
static inline void pc_put_u16(pc_buf *b, size_t at, uint16_t v)
{
	tk_store_u16(b->p + at, v, pc_swap(b));
}

typedef struct pc_attr {
	uint32_t type;
	uint64_t config, sample_period, sample_type, read_format;
	uint64_t flags; /* host bit numbering (TK_PERF_ATTR_*) */
	uint64_t branch_sample_type, regs_user, regs_intr, config3;
} pc_attr;

/* Writes an attr of `size` bytes (>= 64); the size field says `size`. */
static inline void pc_write_attr(pc_buf *b, const pc_attr *a, uint32_t size)
{
	size_t at = b->n;
	pc_zero(b, size);
	uint8_t *p = b->p + at;
	bool s = pc_swap(b);
	tk_store_u32(p, a->type, s);
	tk_store_u32(p + 4, size, s);
	tk_store_u64(p + 8, a->config, s);
	tk_store_u64(p + 16, a->sample_period, s);
	tk_store_u64(p + 24, a->sample_type, s);
	tk_store_u64(p + 32, a->read_format, s);
	/* bitfield: bit i is bit (i % 8) of byte i / 8 on a little-endian
	 * writer, bit 7 - (i % 8) on a big-endian one */
	for (int i = 0; i < 64; i++)
		if ((a->flags >> i) & 1)
			p[40 + i / 8] |= (uint8_t)(1U << (b->be ? 7 - i % 8 : i % 8));
	if (size >= 80)
		tk_store_u64(p + 72, a->branch_sample_type, s);
	if (size >= 88)
		tk_store_u64(p + 80, a->regs_user, s);
	if (size >= 104)
		tk_store_u64(p + 96, a->regs_intr, s);
	if (size >= 136)
		tk_store_u64(p + 128, a->config3, s);
}

static inline size_t pc_rec_begin(pc_buf *b, uint32_t type, uint16_t misc)
{
	size_t at = b->n;
	pc_u32(b, type);
	pc_u16(b, misc);
	pc_u16(b, 0);
	return at;
}

static inline void pc_rec_end(pc_buf *b, size_t at)
{
	pc_put_u16(b, at + 6, (uint16_t)(b->n - at));
}

static inline void pc_pipe_header(pc_buf *b)
{
	pc_bytes(b, b->be ? "2ELIFREP" : "PERFILE2", 8);
	pc_u64(b, 16);
}

/* Pipe-mode HEADER_ATTR record with ids. */
static inline void pc_header_attr(pc_buf *b, const pc_attr *a, uint32_t attr_size,
				  const uint64_t *ids, size_t n_ids)
{
	size_t r = pc_rec_begin(b, TK_PERF_RECORD_HEADER_ATTR, 0);
	pc_write_attr(b, a, attr_size);
	for (size_t i = 0; i < n_ids; i++)
		pc_u64(b, ids[i]);
	pc_rec_end(b, r);
}

/* A file-mode image: header, one attrs section, data, optional features.
 * Call pc_file_begin, pc_write_attr per attr (+ pc_attr_ids), then
 * pc_file_data_begin, records, pc_file_data_end. */
typedef struct pc_file {
	pc_buf b;
	uint32_t attr_size;
	size_t n_attrs;
	size_t attr_at[8];
	size_t data_at;
} pc_file;

static inline void pc_file_begin(pc_file *f, bool be, uint32_t attr_size)
{
	memset(f, 0, sizeof *f);
	f->b.be = be;
	f->attr_size = attr_size;
	pc_bytes(&f->b, be ? "2ELIFREP" : "PERFILE2", 8);
	pc_u64(&f->b, 104);
	pc_u64(&f->b, attr_size + 16);
	pc_zero(&f->b, 104 - 24);
}

static inline void pc_file_attr(pc_file *f, const pc_attr *a)
{
	f->attr_at[f->n_attrs++] = f->b.n;
	pc_write_attr(&f->b, a, f->attr_size);
	pc_zero(&f->b, 16); /* ids section, patched later */
}

/* Ids for attr i; call after all attrs. */
static inline void pc_file_ids(pc_file *f, size_t i, const uint64_t *ids, size_t n)
{
	size_t at = f->b.n;
	for (size_t k = 0; k < n; k++)
		pc_u64(&f->b, ids[k]);
	pc_put_u64(&f->b, f->attr_at[i] + f->attr_size, at);
	pc_put_u64(&f->b, f->attr_at[i] + f->attr_size + 8, n * 8);
}

static inline void pc_file_data_begin(pc_file *f)
{
	pc_put_u64(&f->b, 24, f->attr_at[0]);
	pc_put_u64(&f->b, 32, f->n_attrs * (f->attr_size + 16));
	f->data_at = f->b.n;
}

static inline void pc_file_data_end(pc_file *f)
{
	pc_put_u64(&f->b, 40, f->data_at);
	pc_put_u64(&f->b, 48, f->b.n - f->data_at);
}

/* One feature section (call after pc_file_data_end, in ascending id
 * order, all table slots first: pass n_feats on the first call). */
static inline void pc_file_features(pc_file *f, const unsigned *ids, const void *const *data,
				    const size_t *sizes, size_t n)
{
	size_t table = f->b.n;
	pc_zero(&f->b, 16 * n);
	for (size_t i = 0; i < n; i++) {
		size_t at = f->b.n;
		pc_bytes(&f->b, data[i], sizes[i]);
		pc_put_u64(&f->b, table + 16 * i, at);
		pc_put_u64(&f->b, table + 16 * i + 8, sizes[i]);
		uint64_t word = tk_load_u64(f->b.p + 72 + 8 * (ids[i] / 64), pc_swap(&f->b));
		pc_put_u64(&f->b, 72 + 8 * (ids[i] / 64), word | 1ULL << (ids[i] % 64));
	}
}

#endif
