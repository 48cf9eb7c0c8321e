/* The perf.data output stream (see perfw_out.h). */
#include "perf/writer/perfw_out.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "base/bytes.h"
#include "perf/writer/perfw_swap.h"

#define FILE_HEADER_SIZE 104
/* perf's largest COMPRESSED payload: PERF_SAMPLE_MAX_SIZE - header - 1 */
#define COMP_MAX_PAYLOAD 65527u
#define MAX_RECORD       65535u

void perfw_put32(const perfw_out *o, uint8_t *p, uint32_t v)
{
	tk_store_u32(p, v, o->swap);
}
void perfw_put64(const perfw_out *o, uint8_t *p, uint64_t v)
{
	tk_store_u64(p, v, o->swap);
}

static void put_header(const perfw_out *o, uint8_t *p, uint32_t type, uint16_t misc, uint16_t size)
{
	tk_store_u32(p, type, o->swap);
	tk_store_u16(p + 4, misc, o->swap);
	tk_store_u16(p + 6, size, o->swap);
}

static void put_magic(const perfw_out *o, uint8_t *p)
{
	memcpy(p, o->big ? "2ELIFREP" : "PERFILE2", 8);
}

static tk_status write_error(perfw_out *o, tk_error *err)
{
	tk_status st = tk_writer_flush(o->w, err);
	return st != TK_OK ? st : tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "write failed");
}

tk_status perfw_out_pipe_feature(perfw_out *o, unsigned id, const uint8_t *data, size_t size,
				 tk_error *err)
{
	size_t padded = (size + 7) & ~(size_t)7;
	if (16 + padded > MAX_RECORD)
		return tk_error_set(err, TK_ERR_LIMIT, TK_NO_OFFSET,
				    "feature %u: %zu bytes do not fit in a pipe-mode record", id,
				    size);
	uint8_t h[16];
	put_header(o, h, TK_PERF_RECORD_HEADER_FEATURE, 0, (uint16_t)(16 + padded));
	perfw_put64(o, h + 8, id);
	static const uint8_t zeros[8];
	tk_put_mem(o->w, h, 16);
	if (size)
		tk_put_mem(o->w, data, size);
	tk_put_mem(o->w, zeros, padded - size);
	return o->w->error ? write_error(o, err) : TK_OK;
}

void perfw_out_compressed_feature(const perfw_out *o, uint8_t out[20])
{
	uint32_t ratio = 0;
	if (o->bytes_out)
		ratio = (uint32_t)((o->bytes_in + o->bytes_out / 2) / o->bytes_out);
	perfw_put32(o, out, 0);     /* version */
	perfw_put32(o, out + 4, 1); /* zstd */
	perfw_put32(o, out + 8, (uint32_t)o->level);
	perfw_put32(o, out + 12, ratio);
	perfw_put32(o, out + 16, PERFW_COMP_MMAP_LEN);
}

tk_status perfw_out_open(perfw_out *o, const char *path, bool big, bool compress, tk_error *err)
{
	memset(o, 0, sizeof *o);
	o->big = big;
	o->swap = big == tk_host_is_le();
	o->compress = compress;
	o->level = 1; /* perf record -z's default */
	tk_status st =
	    !path ? tk_writer_open_memory(&o->w, err) : tk_writer_open_atomic(path, &o->w, err);
	if (st != TK_OK)
		return st;
	/* As perf: "-" and anything that cannot seek back to the header (a
	 * FIFO, a socket) get pipe mode. */
	o->pipe = path && (strcmp(path, "-") == 0 || !o->w->seekable);
	if (compress) {
		o->zc = ZSTD_createCCtx();
		o->batch = malloc(PERFW_COMP_BATCH + MAX_RECORD);
		o->zbuf = malloc(8 + COMP_MAX_PAYLOAD);
		if (!o->zc || !o->batch || !o->zbuf) {
			perfw_out_abort(o);
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		}
		ZSTD_CCtx_setParameter(o->zc, ZSTD_c_compressionLevel, o->level);
	}
	uint8_t h[FILE_HEADER_SIZE] = {0};
	if (o->pipe) {
		put_magic(o, h);
		perfw_put64(o, h + 8, 16);
		tk_put_mem(o->w, h, 16);
		o->data_offset = 16;
		if (compress) {
			/* perf needs mmap_len before the first COMPRESSED record */
			uint8_t cf[20];
			perfw_out_compressed_feature(o, cf);
			if ((st = perfw_out_pipe_feature(o, TK_PERF_FEAT_COMPRESSED, cf, 20,
							 err)) != TK_OK) {
				perfw_out_abort(o);
				return st;
			}
		}
	} else {
		tk_put_mem(o->w, h, FILE_HEADER_SIZE); /* written for real at the end */
		o->data_offset = FILE_HEADER_SIZE;
	}
	return TK_OK;
}

tk_status perfw_out_flush_batch(perfw_out *o, tk_error *err)
{
	if (!o->compress || o->batch_len == 0)
		return TK_OK;
	ZSTD_inBuffer in = {o->batch, o->batch_len, 0};
	size_t left;
	do {
		ZSTD_outBuffer zo = {o->zbuf + 8, COMP_MAX_PAYLOAD, 0};
		/* flush, never end: one zstd stream per file, as perf writes */
		left = ZSTD_compressStream2(o->zc, &zo, &in, ZSTD_e_flush);
		if (ZSTD_isError(left))
			return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET,
					    "zstd compression failed: %s", ZSTD_getErrorName(left));
		if (zo.pos) {
			put_header(o, o->zbuf, TK_PERF_RECORD_COMPRESSED, 0,
				   (uint16_t)(8 + zo.pos));
			tk_put_mem(o->w, o->zbuf, 8 + zo.pos);
			o->bytes_out += 8 + zo.pos;
		}
	} while (left != 0 || in.pos < in.size);
	o->bytes_in += o->batch_len;
	o->batch_len = 0;
	return o->w->error ? write_error(o, err) : TK_OK;
}

tk_status perfw_out_record(perfw_out *o, const uint8_t *rec, size_t size, const uint8_t *extra,
			   size_t extra_size, tk_error *err)
{
	tk_status st;
	if (o->compress && !extra_size && size <= MAX_RECORD) {
		if (o->batch_len + size > PERFW_COMP_BATCH &&
		    (st = perfw_out_flush_batch(o, err)) != TK_OK)
			return st;
		memcpy(o->batch + o->batch_len, rec, size);
		o->batch_len += size;
		return TK_OK;
	}
	if ((st = perfw_out_flush_batch(o, err)) != TK_OK)
		return st;
	tk_put_mem(o->w, rec, size);
	if (extra_size)
		tk_put_mem(o->w, extra, extra_size);
	return o->w->error ? write_error(o, err) : TK_OK;
}

tk_status perfw_out_records(perfw_out *o, const uint8_t *recs, size_t size, tk_error *err)
{
	if (o->compress) /* the batch takes records one at a time */
		return tk_error_set(err, TK_ERR_USAGE, TK_NO_OFFSET,
				    "perfw_out_records: not for a compressed output");
	tk_put_mem_direct(o->w, recs, size);
	return o->w->error ? write_error(o, err) : TK_OK;
}

tk_status perfw_out_add_feature(perfw_out *o, unsigned id, uint8_t *data, size_t size,
				tk_error *err)
{
	for (size_t i = 0; i < o->n_feats; i++) {
		if (o->feats[i].id == id) {
			free(o->feats[i].data);
			o->feats[i].data = data;
			o->feats[i].size = size;
			return TK_OK;
		}
	}
	if (o->n_feats == o->cap_feats) {
		size_t cap = o->cap_feats ? 2 * o->cap_feats : 32;
		perfw_feature *nf = realloc(o->feats, cap * sizeof *nf);
		if (!nf) {
			free(data);
			return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
		}
		o->feats = nf;
		o->cap_feats = cap;
	}
	o->feats[o->n_feats++] = (perfw_feature){id, data, size};
	return TK_OK;
}

bool perfw_out_has_feature(const perfw_out *o, unsigned id)
{
	for (size_t i = 0; i < o->n_feats; i++)
		if (o->feats[i].id == id)
			return true;
	return false;
}

tk_status perfw_out_pipe_attr(perfw_out *o, const tk_perf_attr *a, uint32_t attr_size,
			      tk_error *err)
{
	size_t size = 8 + attr_size + 8 * a->n_ids;
	if (size > MAX_RECORD)
		return tk_error_set(err, TK_ERR_LIMIT, TK_NO_OFFSET,
				    "attr %s: %zu ids do not fit in a HEADER_ATTR record", a->name,
				    a->n_ids);
	uint8_t buf[MAX_RECORD];
	put_header(o, buf, TK_PERF_RECORD_HEADER_ATTR, 0, (uint16_t)size);
	perfw_encode_attr(a, attr_size, o->big, buf + 8);
	for (size_t i = 0; i < a->n_ids; i++)
		perfw_put64(o, buf + 8 + attr_size + 8 * i, a->ids[i]);
	return perfw_out_record(o, buf, size, NULL, 0, err);
}

tk_status perfw_out_pipe_tracing(perfw_out *o, const uint8_t *data, size_t size, tk_error *err)
{
	size_t padded = (size + 7) & ~(size_t)7;
	if (padded > UINT32_MAX)
		return tk_error_set(err, TK_ERR_LIMIT, TK_NO_OFFSET, "tracing data too large");
	uint8_t h[16] = {0};
	put_header(o, h, TK_PERF_RECORD_HEADER_TRACING_DATA, 0, 16);
	perfw_put32(o, h + 8, (uint32_t)padded);
	static const uint8_t zeros[8];
	tk_status st = perfw_out_flush_batch(o, err);
	if (st != TK_OK)
		return st;
	tk_put_mem(o->w, h, 16);
	if (size)
		tk_put_mem(o->w, data, size);
	tk_put_mem(o->w, zeros, padded - size);
	return o->w->error ? write_error(o, err) : TK_OK;
}

static int cmp_feat(const void *a, const void *b)
{
	unsigned x = ((const perfw_feature *)a)->id, y = ((const perfw_feature *)b)->id;
	return x < y ? -1 : x > y;
}

static void free_out(perfw_out *o)
{
	for (size_t i = 0; i < o->n_feats; i++)
		free(o->feats[i].data);
	free(o->feats);
	free(o->batch);
	free(o->zbuf);
	ZSTD_freeCCtx(o->zc);
	o->feats = NULL;
	o->batch = o->zbuf = NULL;
	o->zc = NULL;
	o->w = NULL;
}

void perfw_out_abort(perfw_out *o)
{
	tk_writer_abort(o->w);
	free_out(o);
}

tk_status perfw_out_finish(perfw_out *o, const tk_perf_attr *const *attrs, size_t n_attrs,
			   uint32_t attr_size, tk_error *err)
{
	tk_status st = perfw_out_flush_batch(o, err);
	if (st != TK_OK)
		goto fail;
	if (o->pipe) {
		st = tk_writer_commit(o->w, err);
		o->w = NULL;
		free_out(o);
		return st;
	}
	uint64_t data_end = tk_writer_tell(o->w);
	uint8_t h[FILE_HEADER_SIZE] = {0};
	uint64_t feat_bits[4] = {0};

	/* feature table, then the sections in ascending id order */
	if (o->n_feats)
		qsort(o->feats, o->n_feats, sizeof *o->feats, cmp_feat);
	uint64_t off = data_end + 16 * (uint64_t)o->n_feats;
	for (size_t i = 0; i < o->n_feats; i++) {
		uint8_t e[16];
		perfw_put64(o, e, off);
		perfw_put64(o, e + 8, o->feats[i].size);
		tk_put_mem(o->w, e, 16);
		off += o->feats[i].size;
		feat_bits[o->feats[i].id / 64] |= (uint64_t)1 << (o->feats[i].id % 64);
	}
	for (size_t i = 0; i < o->n_feats; i++)
		if (o->feats[i].size)
			tk_put_mem(o->w, o->feats[i].data, o->feats[i].size);

	/* attrs, each followed by its ids section; then the ids */
	uint64_t attrs_off = tk_writer_tell(o->w);
	uint64_t entry = (uint64_t)attr_size + 16;
	uint64_t ids_off = attrs_off + entry * n_attrs;
	uint8_t abuf[256];
	for (size_t i = 0; i < n_attrs; i++) {
		perfw_encode_attr(attrs[i], attr_size, o->big, abuf);
		perfw_put64(o, abuf + attr_size, ids_off);
		perfw_put64(o, abuf + attr_size + 8, 8 * (uint64_t)attrs[i]->n_ids);
		tk_put_mem(o->w, abuf, entry);
		ids_off += 8 * (uint64_t)attrs[i]->n_ids;
	}
	for (size_t i = 0; i < n_attrs; i++) {
		for (size_t k = 0; k < attrs[i]->n_ids; k++) {
			uint8_t v[8];
			perfw_put64(o, v, attrs[i]->ids[k]);
			tk_put_mem(o->w, v, 8);
		}
	}
	if ((st = tk_writer_flush(o->w, err)) != TK_OK)
		goto fail;

	put_magic(o, h);
	perfw_put64(o, h + 8, FILE_HEADER_SIZE);
	perfw_put64(o, h + 16, entry);
	perfw_put64(o, h + 24, attrs_off);
	perfw_put64(o, h + 32, entry * n_attrs);
	perfw_put64(o, h + 40, o->data_offset);
	perfw_put64(o, h + 48, data_end - o->data_offset);
	for (int i = 0; i < 4; i++)
		perfw_put64(o, h + 72 + 8 * i, feat_bits[i]);
	if (o->w->fd < 0) { /* memory: the whole output is in the buffer */
		memcpy(o->w->buf, h, sizeof h);
		o->result = o->w;
		o->w = NULL;
		free_out(o);
		return TK_OK;
	}
	if (pwrite(o->w->fd, h, sizeof h, 0) != (ssize_t)sizeof h) {
		st = tk_error_set(err, TK_ERR_IO, 0, "cannot write the perf.data header: %s",
				  strerror(errno));
		goto fail;
	}
	st = tk_writer_commit(o->w, err);
	o->w = NULL;
	free_out(o);
	return st;
fail:
	perfw_out_abort(o);
	return st;
}

/* ---- attrs ---- */

uint32_t perfw_attr_size(const tk_perf_attr *const *attrs, size_t n)
{
	uint32_t size = 64;
	bool config3 = false;
	for (size_t i = 0; i < n; i++) {
		uint32_t s = attrs[i]->size ? attrs[i]->size : 64;
		if (s > size)
			size = s;
		config3 |= attrs[i]->config3 != 0;
	}
	if (size > 136)
		size = 136; /* fields past VER8 are not decoded: not kept */
	if (size > 128 && !config3)
		size = 128;
	return (size + 7) & ~7u;
}

static void le16(uint8_t *p, uint16_t v)
{
	tk_store_u16(p, v, !tk_host_is_le());
}
static void le32(uint8_t *p, uint32_t v)
{
	tk_store_u32(p, v, !tk_host_is_le());
}
static void le64(uint8_t *p, uint64_t v)
{
	tk_store_u64(p, v, !tk_host_is_le());
}

void perfw_encode_attr(const tk_perf_attr *a, uint32_t size, bool big, uint8_t *out)
{
	/* built in the little-endian layout, then converted */
	uint8_t p[136] = {0};
	le32(p, a->type);
	le32(p + 4, size);
	le64(p + 8, a->config);
	le64(p + 16, a->sample_period);
	le64(p + 24, a->sample_type);
	le64(p + 32, a->read_format);
	le64(p + 40, a->flags); /* bit n = bitfield member n */
	le32(p + 48, a->wakeup_events);
	le32(p + 52, a->bp_type);
	le64(p + 56, a->config1);
	le64(p + 64, a->config2);
	le64(p + 72, a->branch_sample_type);
	le64(p + 80, a->sample_regs_user);
	le32(p + 88, a->sample_stack_user);
	le32(p + 92, (uint32_t)a->clockid);
	le64(p + 96, a->sample_regs_intr);
	le32(p + 104, a->aux_watermark);
	le16(p + 108, a->sample_max_stack);
	le32(p + 112, a->aux_sample_size);
	le64(p + 120, a->sig_data);
	le64(p + 128, a->config3);
	size_t n = size < sizeof p ? size : sizeof p;
	memset(out, 0, size);
	memcpy(out, p, n);
	if (big)
		perfw_swap_attr(out, size);
}
