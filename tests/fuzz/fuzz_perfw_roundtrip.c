/* Fuzz target for the perf.data writer: read -> write -> read of the input
 * gives the same data records, byte for byte and in the same order, for a
 * plain copy, a compressed copy, and a copy converted to the other byte
 * order and back (exactly when perf would accept the attrs: see
 * perf_valid()). Inputs the reader rejects must be rejected by the copier
 * too (never a crash, never a half-written output). Metadata records
 * (HEADER_*, COMPRESSED) are not compared: a file-mode copy holds their
 * content in its header sections. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perf/writer/perfw_copy.h"
#include "tracekit/tracekit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct recs {
	uint8_t *bytes; /* concatenated data records */
	size_t len, n;
	bool perf_valid; /* attrs agree on where ids are, as perf demands */
} recs;

/* perf's evsel id_pos / is_pos (evsel.c __perf_evsel__calc_{id,is}_pos). */
static int id_pos(uint64_t st)
{
	if (st & TK_PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(st & TK_PERF_SAMPLE_ID))
		return -1;
	return !!(st & TK_PERF_SAMPLE_IP) + !!(st & TK_PERF_SAMPLE_TID) +
	       !!(st & TK_PERF_SAMPLE_TIME) + !!(st & TK_PERF_SAMPLE_ADDR);
}

static int is_pos(uint64_t st)
{
	if (st & TK_PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(st & TK_PERF_SAMPLE_ID))
		return -1;
	return 1 + !!(st & TK_PERF_SAMPLE_CPU) + !!(st & TK_PERF_SAMPLE_STREAM_ID);
}

/* evlist__valid_sample_type(): with several attrs, every record's attr is
 * found through an id at one position. When attrs disagree, which attr
 * (hence which layout) a record gets depends on bytes a byte-order
 * conversion changes, so only files perf accepts convert exactly. */
static bool perf_valid(const tk_perf_file *f)
{
	size_t n = tk_perf_attr_count(f);
	if (n <= 1)
		return true;
	uint64_t st0 = tk_perf_attr_at(f, 0)->sample_type;
	bool all0 = tk_perf_attr_flag(tk_perf_attr_at(f, 0), TK_PERF_ATTR_SAMPLE_ID_ALL);
	if (id_pos(st0) < 0 || is_pos(st0) < 0)
		return false;
	for (size_t i = 1; i < n; i++) {
		const tk_perf_attr *a = tk_perf_attr_at(f, i);
		if (id_pos(a->sample_type) != id_pos(st0) ||
		    is_pos(a->sample_type) != is_pos(st0) ||
		    tk_perf_attr_flag(a, TK_PERF_ATTR_SAMPLE_ID_ALL) != all0)
			return false;
	}
	return true;
}

static bool is_meta(uint32_t type)
{
	return type == TK_PERF_RECORD_HEADER_ATTR || type == TK_PERF_RECORD_HEADER_FEATURE ||
	       type == TK_PERF_RECORD_HEADER_TRACING_DATA ||
	       type == TK_PERF_RECORD_HEADER_BUILD_ID || type == TK_PERF_RECORD_HEADER_EVENT_TYPE ||
	       type == TK_PERF_RECORD_COMPRESSED || type == TK_PERF_RECORD_COMPRESSED2;
}

/* The data records of a perf.data in memory; false if it does not read. */
static bool read_recs(const void *data, size_t size, recs *out)
{
	memset(out, 0, sizeof *out);
	tk_perf_open_options oo = {.raw_order = true};
	tk_perf_file *f;
	tk_error err;
	if (tk_perf_open_memory(data, size, "fuzz", &oo, &f, &err) != TK_OK)
		return false;
	const tk_perf_record *r;
	tk_status st;
	size_t cap = 0;
	bool before_attrs = false; /* pipe: kernel records ahead of any attr */
	while ((st = tk_perf_next(f, &r, &err)) == TK_OK) {
		if (is_meta(r->type))
			continue;
		if (r->type < TK_PERF_RECORD_HEADER_ATTR && tk_perf_attr_count(f) == 0)
			before_attrs = true;
		size_t need = out->len + r->size + r->extra_size;
		if (need > cap) {
			cap = need * 2;
			uint8_t *nb = realloc(out->bytes, cap);
			if (!nb)
				abort();
			out->bytes = nb;
		}
		memcpy(out->bytes + out->len, r->data, r->size);
		out->len += r->size;
		if (r->extra_size) {
			memcpy(out->bytes + out->len, r->extra, r->extra_size);
			out->len += r->extra_size;
		}
		out->n++;
	}
	/* a record read before its attr has no layout yet; in a file-mode
	 * copy it has one: such input converts, but not exactly */
	out->perf_valid = perf_valid(f) && !(before_attrs && tk_perf_attr_count(f) > 0);
	tk_perf_close(f);
	if (st != TK_END) {
		free(out->bytes);
		return false;
	}
	return true;
}

static void same(const recs *a, const recs *b)
{
	if (a->n != b->n || a->len != b->len || (a->len && memcmp(a->bytes, b->bytes, a->len) != 0))
		abort();
}

/* Copies data with the options; NULL when the copier refuses it. */
static tk_writer *copy(const void *data, size_t size, const char *order, bool compress)
{
	tk_sink_options opt = {.byte_order = order, .compress = compress};
	tk_writer *out;
	tk_error err;
	if (perfw_copy_memory(data, size, &opt, &out, &err) != TK_OK)
		return NULL;
	return out;
}

static void check_copy(const recs *want, const void *data, size_t size, const char *order,
		       bool compress)
{
	tk_writer *w = copy(data, size, order, compress);
	if (!w)
		abort(); /* the input reads: the copy must succeed */
	size_t n;
	const char *bytes = tk_writer_data(w, &n);
	recs got;
	if (!read_recs(bytes, n, &got))
		abort();
	same(want, &got);
	free(got.bytes);
	tk_writer_abort(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	recs want;
	if (!read_recs(data, size, &want)) {
		/* unreadable input: the copier reports an error (and must not crash) */
		tk_writer *w = copy(data, size, NULL, false);
		tk_writer_abort(w);
		return 0;
	}
	check_copy(&want, data, size, NULL, false);
	check_copy(&want, data, size, NULL, true);

	/* other byte order and back */
	bool big = size >= 8 && memcmp(data, "2ELIFREP", 8) == 0;
	tk_writer *w = copy(data, size, big ? "little" : "big", false);
	if (!w)
		abort();
	size_t n;
	const char *other = tk_writer_data(w, &n);
	recs conv;
	if (!read_recs(other, n, &conv))
		abort();
	if (conv.n != want.n)
		abort();
	free(conv.bytes);
	if (want.perf_valid) {
		check_copy(&want, other, n, big ? "big" : "little", false);
	} else {
		/* ambiguous attrs: back in the input's order it still reads */
		tk_writer *back = copy(other, n, big ? "big" : "little", false);
		if (!back)
			abort();
		tk_writer_abort(back);
	}
	tk_writer_abort(w);
	free(want.bytes);
	return 0;
}
