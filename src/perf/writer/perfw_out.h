/* The perf.data output stream shared by the copier and the model sink:
 * file or pipe header, records (optionally zstd-compressed into COMPRESSED
 * records), and in file mode the sections written at the end (feature
 * table, features, attrs, ids) before the header is written in place.
 *
 * File layout: header | data | feature table | features | attrs | ids.
 * perf finds the feature table at data.offset + data.size and everything
 * else through the header, so nothing needs to be known before the data.
 *
 * Everything handed to perfw_out_* is already in the output byte order.
 * Not thread-safe. */
#ifndef TK_PERFW_OUT_H
#define TK_PERFW_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/writer.h"
#include "tracekit/tracekit.h"

/* perf's mmap_len for the default 512 KiB buffers; batches stay well below
 * it so perf 6.1 decompresses each COMPRESSED record in one go. */
#define PERFW_COMP_MMAP_LEN 528384u
#define PERFW_COMP_BATCH    (256u * 1024u)

typedef struct perfw_feature {
	unsigned id;
	uint8_t *data; /* malloc'd, output byte order */
	size_t size;
} perfw_feature;

typedef struct perfw_out {
	tk_writer *w;
	bool pipe; /* pipe mode (stdout) */
	bool big;  /* output is big-endian */
	bool swap; /* output order differs from the host's */
	bool compress;
	int level;      /* zstd level */
	void *zc;       /* ZSTD_CCtx* */
	uint8_t *batch; /* records waiting to be compressed */
	size_t batch_len;
	uint8_t *zbuf;                /* one COMPRESSED record */
	uint64_t bytes_in, bytes_out; /* for the compression ratio */
	uint64_t data_offset;
	/* memory mode (path NULL): the finished output, taken by the caller */
	tk_writer *result;
	/* features for file mode, any order; sorted at finish */
	perfw_feature *feats;
	size_t n_feats, cap_feats;
} perfw_out;

/* path "-": pipe mode on stdout; NULL: file mode in memory (tests,
 * fuzzing: perfw_out_finish leaves the bytes in o->result); else an atomic
 * file. Writes the header (pipe) or room for it (file). */
tk_status perfw_out_open(perfw_out *o, const char *path, bool big, bool compress, tk_error *err);
/* One record (and the payload that follows it, AUXTRACE or pipe
 * TRACING_DATA, already padded). Records with a payload are never
 * compressed (perf writes AUX data outside the compressed stream). */
tk_status perfw_out_record(perfw_out *o, const uint8_t *rec, size_t size, const uint8_t *extra,
			   size_t extra_size, tk_error *err);
/* Records back to back as the kernel's ring holds them, written straight
 * from that memory (perfw_out_record copies through the buffer); not for a
 * compressed output, whose batches take one record at a time. */
tk_status perfw_out_records(perfw_out *o, const uint8_t *recs, size_t size, tk_error *err);
/* Ends the pending compressed batch (call before out-of-stream writes). */
tk_status perfw_out_flush_batch(perfw_out *o, tk_error *err);

/* File mode: takes ownership of data (malloc'd, output order); a later
 * feature with the same id replaces an earlier one. */
tk_status perfw_out_add_feature(perfw_out *o, unsigned id, uint8_t *data, size_t size,
				tk_error *err);
bool perfw_out_has_feature(const perfw_out *o, unsigned id);
/* The HEADER_COMPRESSED payload (20 bytes, output order). ratio 0 when
 * unknown (pipe mode writes it before any data). */
void perfw_out_compressed_feature(const perfw_out *o, uint8_t out[20]);

/* Pipe mode metadata records. */
tk_status perfw_out_pipe_attr(perfw_out *o, const tk_perf_attr *a, uint32_t attr_size,
			      tk_error *err);
tk_status perfw_out_pipe_feature(perfw_out *o, unsigned id, const uint8_t *data, size_t size,
				 tk_error *err);
tk_status perfw_out_pipe_tracing(perfw_out *o, const uint8_t *data, size_t size, tk_error *err);

/* File mode end: features, attrs + ids, header; then commits. Pipe mode:
 * flushes and frees. Either way o is done. */
tk_status perfw_out_finish(perfw_out *o, const tk_perf_attr *const *attrs, size_t n_attrs,
			   uint32_t attr_size, tk_error *err);
/* Drops the output (an atomic file's temporary is removed). */
void perfw_out_abort(perfw_out *o);

/* Encodes an attr as perf_event_attr of `size` bytes in the given order. */
void perfw_encode_attr(const tk_perf_attr *a, uint32_t size, bool big, uint8_t *out);
/* The attr size to write for these attrs: the largest stored size, but
 * VER7 (128) when no attr uses config3, which perf 6.1 cannot read. */
uint32_t perfw_attr_size(const tk_perf_attr *const *attrs, size_t n);

/* Stores v in the output order. */
void perfw_put32(const perfw_out *o, uint8_t *p, uint32_t v);
void perfw_put64(const perfw_out *o, uint8_t *p, uint64_t v);

#endif
