/* Raw records in file order: the data section of a file (zero-copy from the
 * mmap), a pipe stream (bytes valid until the next fetch), the files of a
 * --threads directory (round robin, like perf's reader loop), and the
 * records inside zstd COMPRESSED / COMPRESSED2 records (one zstd stream per
 * input file; a record may span two compressed records). */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "perf/perf_internal.h"

/* perf's __perf_session__process_dir_events switches reader after this many bytes. */
#define DIR_READER_SLICE ((uint64_t)2 << 20)
/* Stream payloads (AUXTRACE data) larger than this are skipped, not exposed. */
#define MAX_STREAM_EXTRA ((uint64_t)64 << 20)
/* Decompressed window: a record is at most 64 KiB, so this bounds memory. */
#define DBUF_MIN (256 * 1024)

static uint64_t align8(uint64_t v)
{
	return (v + 7) & ~(uint64_t)7;
}

/* Bytes that follow a record outside header.size (AUXTRACE data, tracing data). */
static uint64_t extra_bytes(const tk_perf_file *f, const uint8_t *p, uint32_t type, uint32_t size,
			    uint64_t *exposed)
{
	*exposed = 0;
	if (type == TK_PERF_RECORD_AUXTRACE && size >= 16) {
		*exposed = tk_load_u64(p + 8, f->swap);
		return *exposed;
	}
	if (type == TK_PERF_RECORD_HEADER_TRACING_DATA && size >= 12) {
		*exposed = tk_load_u32(p + 8, f->swap);
		/* simpleperf keeps the data inside the record; perf after it */
		if (*exposed <= size - 12)
			return 0;
		return align8(*exposed);
	}
	return 0;
}

/* A pipe recording cut short (perf killed, output captured with trailing
 * text) ends cleanly at its last whole record, as perf stops at the first
 * incomplete read; in file mode the data section size says what is due. */
static tk_status cut_short(tk_perf_file *f, perf_input *pi, uint64_t pos, uint64_t size,
			   tk_error *err)
{
	if (f->hdr.pipe_mode) {
		tk_perf_warn(f,
			     "%s: input ends inside a %llu-byte record at 0x%llx; stopping there",
			     pi->path, (unsigned long long)size, (unsigned long long)pos);
		return TK_END;
	}
	if (f->unfinished)
		return TK_END; /* the last record was being written: warned at open */
	if (f->data_truncated)
		return tk_error_set(err, TK_ERR_TRUNCATED, pos,
				    "truncated file: it ends inside a %llu-byte record at 0x%llx "
				    "(file size %llu, data section declared up to 0x%llx)",
				    (unsigned long long)size, (unsigned long long)pos,
				    (unsigned long long)pi->end,
				    (unsigned long long)f->data_declared_end);
	return tk_error_set(err, TK_ERR_TRUNCATED, pos,
			    "record of %llu bytes at 0x%llx runs past the end of the data (0x%llx)",
			    (unsigned long long)size, (unsigned long long)pos,
			    (unsigned long long)pi->end);
}

static tk_status read_input_record(tk_perf_file *f, perf_input *pi, tk_perf_record *r,
				   tk_error *err)
{
	uint64_t pos = pi->pos;
	const uint8_t *p;
	bool stream = pi->map == NULL;
	if (!stream && pos >= pi->end) {
		if (f->data_truncated && pi == &f->inputs[0])
			return tk_error_set(err, TK_ERR_TRUNCATED, pos,
					    "truncated file: it ends at 0x%llx, the data section "
					    "was declared up to 0x%llx",
					    (unsigned long long)pos,
					    (unsigned long long)f->data_declared_end);
		return TK_END;
	}
	if (!stream && pi->end - pos < 8)
		return cut_short(f, pi, pos, 8, err);
	tk_status st;
	if (pos >= pi->next_release) {
		/* let the medium drop pages far behind us: resident memory stays
		 * flat on big files (queued records stay readable either way) */
		tk_input_release(pi->in, pos);
		pi->next_release = pos + (1U << 20);
	}
	if (!stream && pi->end - pos >= 8 && pi->end <= tk_input_size(pi->in)) {
		/* mapped fast path: one bounds check against the data end */
		p = pi->map + pos;
		uint32_t size16 = tk_load_u16(p + 6, f->swap);
		uint32_t t = tk_load_u32(p, f->swap);
		if (size16 >= 8 && size16 <= pi->end - pos && t != TK_PERF_RECORD_COMPRESSED2 &&
		    t != TK_PERF_RECORD_AUXTRACE && t != TK_PERF_RECORD_HEADER_TRACING_DATA) {
			r->type = t;
			r->misc = tk_load_u16(p + 4, f->swap);
			r->size = size16;
			r->data = p;
			r->offset = pos;
			r->from_compressed = false;
			r->extra = NULL;
			r->extra_size = 0;
			pi->pos = pos + size16;
			f->cur_input_bytes += size16;
			tk_input_release(pi->in, pos); /* resident memory stays flat */
			return TK_OK;
		}
	}
	st = tk_input_fetch(pi->in, pos, 8, &p, err);
	if (st == TK_ERR_TRUNCATED)
		return cut_short(f, pi, pos, 8, err);
	if (st != TK_OK)
		return st; /* TK_END: a stream ended cleanly between records */
	uint32_t type = tk_load_u32(p, f->swap);
	uint64_t size = tk_load_u16(p + 6, f->swap);
	if (size < 8 && f->unfinished)
		return TK_END; /* zeros where the killed recording stopped */
	if (size < 8)
		return tk_error_set(err, TK_ERR_FORMAT, pos,
				    "record size %llu is smaller than its 8-byte header (type %u)",
				    (unsigned long long)size, type);
	if (type == TK_PERF_RECORD_COMPRESSED2) {
		/* header.size is a u16 that perf >= 6.16 can overflow: data_size rules */
		if (size < 16)
			return tk_error_set(err, TK_ERR_FORMAT, pos,
					    "COMPRESSED2 record of %llu bytes",
					    (unsigned long long)size);
		if ((st = tk_input_fetch(pi->in, pos, 16, &p, err)) != TK_OK)
			return st == TK_ERR_TRUNCATED || st == TK_END
				   ? cut_short(f, pi, pos, 16, err)
				   : st;
		uint64_t ds = tk_load_u64(p + 8, f->swap);
		if (ds > ((uint64_t)1 << 32))
			return tk_error_set(err, TK_ERR_FORMAT, pos + 8,
					    "COMPRESSED2 data size %llu is too large",
					    (unsigned long long)ds);
		size = align8(16 + ds);
	}
	if (!stream && pi->end - pos < size)
		return cut_short(f, pi, pos, size, err);
	if ((st = tk_input_fetch(pi->in, pos, (size_t)size, &p, err)) != TK_OK) {
		if (st == TK_ERR_TRUNCATED || st == TK_END)
			return cut_short(f, pi, pos, size, err);
		return st == TK_END
			   ? tk_error_set(err, TK_ERR_TRUNCATED, pos, "input ends inside a record")
			   : st;
	}
	uint64_t exposed;
	uint64_t skip = extra_bytes(f, p, type, (uint32_t)size, &exposed);
	r->extra = NULL;
	r->extra_size = exposed;
	if (exposed && !skip) {
		r->extra = p + 12; /* inline payload */
	} else if (skip) {
		if (!stream) {
			if (pi->end - pos - size < skip)
				return cut_short(f, pi, pos, size + skip, err);
			r->extra = p + size;
		} else if (skip <= MAX_STREAM_EXTRA) {
			if ((st = tk_input_fetch(pi->in, pos, (size_t)(size + skip), &p, err)) !=
			    TK_OK)
				return st == TK_ERR_TRUNCATED || st == TK_END
					   ? cut_short(f, pi, pos, size + skip, err)
					   : st;
			r->extra = p + size;
		}
	}
	r->type = type;
	r->misc = tk_load_u16(p + 4, f->swap);
	r->size = (uint32_t)size;
	r->data = p;
	r->offset = pos;
	r->from_compressed = false;
	pi->pos = pos + size + skip;
	f->cur_input_bytes += size;
	tk_input_release(pi->in, pos); /* keeps resident memory flat on big files */
	return TK_OK;
}

/* Takes the compressed payload of a COMPRESSED(2) record. The bytes stay
 * valid while they are consumed: nothing is fetched from this input until
 * the payload is used up. */
static tk_status start_compressed(tk_perf_file *f, perf_input *pi, const tk_perf_record *r,
				  tk_error *err)
{
	size_t hdr = r->type == TK_PERF_RECORD_COMPRESSED2 ? 16 : 8;
	size_t n = r->size - hdr;
	if (r->type == TK_PERF_RECORD_COMPRESSED2)
		n = (size_t)tk_load_u64(r->data + 8, f->swap);
	if (!pi->zstd) {
		pi->zstd = ZSTD_createDCtx();
		if (!pi->zstd)
			return tk_error_set(err, TK_ERR_NOMEM, r->offset,
					    "cannot create a zstd context");
	}
	pi->zin = r->data + hdr;
	pi->zin_size = n;
	pi->zin_pos = 0;
	pi->zrec_offset = r->offset;
	return TK_OK;
}

/* Decompresses more of the current payload into the window. */
static tk_status inflate_more(perf_input *pi, tk_error *err)
{
	if (pi->dbuf_pos) {
		memmove(pi->dbuf, pi->dbuf + pi->dbuf_pos, pi->dbuf_len - pi->dbuf_pos);
		pi->dbuf_len -= pi->dbuf_pos;
		pi->dbuf_pos = 0;
	}
	if (pi->dbuf_cap - pi->dbuf_len < 65536) {
		size_t cap = pi->dbuf_cap ? pi->dbuf_cap * 2 : DBUF_MIN;
		uint8_t *nb = realloc(pi->dbuf, cap);
		if (!nb)
			return tk_error_set(err, TK_ERR_NOMEM, pi->zrec_offset, "out of memory");
		pi->dbuf = nb;
		pi->dbuf_cap = cap;
	}
	ZSTD_inBuffer in = {pi->zin, pi->zin_size, pi->zin_pos};
	ZSTD_outBuffer out = {pi->dbuf + pi->dbuf_len, pi->dbuf_cap - pi->dbuf_len, 0};
	size_t rc = ZSTD_decompressStream(pi->zstd, &out, &in);
	if (ZSTD_isError(rc))
		return tk_error_set(err, TK_ERR_FORMAT, pi->zrec_offset, "zstd: %s",
				    ZSTD_getErrorName(rc));
	if (in.pos == pi->zin_pos && out.pos == 0) {
		/* no progress with room to spare: the payload is unusable */
		return tk_error_set(err, TK_ERR_FORMAT, pi->zrec_offset,
				    "zstd made no progress on the compressed record");
	}
	pi->zin_pos = in.pos;
	pi->dbuf_len += out.pos;
	return TK_OK;
}

/* The next record of one input, compressed ones expanded. */
static tk_status input_next(tk_perf_file *f, perf_input *pi, tk_perf_record *r, tk_error *err)
{
	for (;;) {
		size_t avail = pi->dbuf_len - pi->dbuf_pos;
		if (avail >= 8) {
			const uint8_t *p = pi->dbuf + pi->dbuf_pos;
			uint32_t size = tk_load_u16(p + 6, f->swap);
			if (size < 8)
				return tk_error_set(err, TK_ERR_FORMAT, pi->zrec_offset,
						    "record size %u inside compressed data is "
						    "smaller than its header",
						    size);
			if (size <= avail) {
				memset(r, 0, sizeof *r);
				r->type = tk_load_u32(p, f->swap);
				r->misc = tk_load_u16(p + 4, f->swap);
				r->size = size;
				r->data = p;
				r->offset = pi->zrec_offset;
				r->from_compressed = true;
				pi->dbuf_pos += size;
				return TK_OK;
			}
		}
		if (pi->zin && pi->zin_pos < pi->zin_size) {
			tk_status st = inflate_more(pi, err);
			if (st != TK_OK)
				return st;
			continue;
		}
		pi->zin = NULL;
		if (pi->done)
			return TK_END;
		tk_status st = read_input_record(f, pi, r, err);
		if (st == TK_END) {
			pi->done = true;
			if (pi->dbuf_len > pi->dbuf_pos)
				tk_perf_warn(
				    f, "%s: compressed data ends inside a record (%zu bytes left)",
				    pi->path, pi->dbuf_len - pi->dbuf_pos);
			return TK_END;
		}
		if (st != TK_OK)
			return st;
		if (r->type == TK_PERF_RECORD_COMPRESSED || r->type == TK_PERF_RECORD_COMPRESSED2) {
			f->n_compressed[r->type == TK_PERF_RECORD_COMPRESSED2]++;
			if ((st = start_compressed(f, pi, r, err)) != TK_OK)
				return st;
			continue;
		}
		return TK_OK;
	}
}

static bool drained(const perf_input *pi)
{
	return pi->dbuf_len - pi->dbuf_pos < 8 && !(pi->zin && pi->zin_pos < pi->zin_size);
}

tk_status tk_perf_read_raw(tk_perf_file *f, tk_perf_record *r, tk_error *err)
{
	/* every path below fills all of *r but attr/sid/has_time (classify's) */
	for (;;) {
		perf_input *pi = &f->inputs[f->cur_input];
		if (f->n_inputs > 1 && drained(pi) &&
		    (pi->done || f->cur_input_bytes >= DIR_READER_SLICE)) {
			/* next reader, like perf's round robin over data + data.N */
			bool all = true;
			for (size_t i = 0; i < f->n_inputs; i++)
				all = all && f->inputs[i].done;
			if (all)
				return TK_END;
			f->cur_input = (f->cur_input + 1) % f->n_inputs;
			f->cur_input_bytes = 0;
			continue;
		}
		tk_status st = input_next(f, pi, r, err);
		if (st != TK_END || f->n_inputs == 1)
			return st;
	}
}

void tk_perf_records_free(tk_perf_file *f)
{
	for (size_t i = 0; i < f->n_inputs; i++) {
		ZSTD_freeDCtx(f->inputs[i].zstd);
		free(f->inputs[i].dbuf);
	}
}
