/* Internals of the perf.data reader shared by src/perf/perf_*.c.
 *
 * Pipeline, bottom to top:
 *   perf_records.c  raw records in file order from the input(s): data
 *                   section or pipe stream, AUXTRACE / pipe TRACING_DATA
 *                   payloads, --threads directories, zstd COMPRESSED(2)
 *   perf_meta.c     metadata records (HEADER_ATTR, HEADER_FEATURE,
 *                   ID_INDEX, TRACING_DATA...) applied as they are read
 *   perf_order.c    perf's FINISHED_ROUND time ordering (ordered-events.c)
 *   perf_sample.c   sample and sample_id trailer decoding
 *   perf_event.c    typed views of non-sample records
 * Attrs live in the metadata arena and never move (records point at them). */
#ifndef TK_PERF_INTERNAL_H
#define TK_PERF_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/bytes.h"
#include "base/hashmap.h"
#include "base/input.h"
#include "tracekit/tracekit.h"

#define TK_PERF_MAX_INPUTS 4096
/* The smallest attr perf ever wrote (PERF_ATTR_SIZE_VER0). */
#define TK_PERF_ATTR_MIN_SIZE 64

/* One input file: the single file, or one file of a --threads directory. */
typedef struct perf_input {
	tk_input *in;
	const uint8_t *map;    /* whole file when mapped or in memory, else NULL */
	char *path;            /* malloc'd */
	uint64_t pos;          /* next record offset */
	uint64_t end;          /* end of the data (UINT64_MAX for pipes: EOF) */
	uint64_t next_release; /* next offset at which to call tk_input_release */
	bool done;
	/* zstd: one stream per input file, fed in file order */
	void *zstd;    /* ZSTD_DCtx*, created on the first COMPRESSED */
	uint8_t *dbuf; /* decompressed bytes not yet handed out */
	size_t dbuf_cap, dbuf_len, dbuf_pos;
	const uint8_t *zin; /* compressed payload being consumed */
	size_t zin_size, zin_pos;
	uint64_t zrec_offset; /* offset of the COMPRESSED record being fed */
} perf_input;

/* A queued record waiting for its time-ordered turn (24 bytes). */
typedef struct perf_qentry {
	uint64_t time;
	const uint8_t *rec; /* the record bytes (mmap, or a copy) */
	uint64_t meta;      /* offset (bits 0..55) | flags */
} perf_qentry;

#define PERF_Q_COPIED      ((uint64_t)1 << 63)
#define PERF_Q_COMPRESSED  ((uint64_t)1 << 62)
#define PERF_Q_OFFSET_MASK (((uint64_t)1 << 56) - 1)
/* Bits 56..61: attr index + 1 found when the record was queued (0 = none or
 * index too large), so emitting it does not look the id up again. */
#define PERF_Q_ATTR_SHIFT 56
#define PERF_Q_ATTR_MAX   ((uint64_t)62) /* largest index that fits */
#define PERF_Q_ATTR_BITS  ((uint64_t)63)

#define PERF_ID_CACHE_SIZE 8

typedef struct perf_copy_chunk perf_copy_chunk;

struct tk_perf_file {
	tk_perf_open_options opt;
	char name[256];
	tk_perf_header hdr;
	bool swap;

	/* inputs: [0] is the main file (header + metadata) */
	perf_input *inputs;
	size_t n_inputs;
	size_t cur_input; /* directory round robin */
	uint64_t cur_input_bytes;
	uint64_t n_compressed[2]; /* COMPRESSED, COMPRESSED2 records read (stats counts them) */

	tk_arena meta; /* attrs, names, features: live until close */

	/* attrs (pointers never move) */
	tk_perf_attr **attrs;
	size_t n_attrs, cap_attrs;
	tk_hashmap id_to_attr;      /* id -> index + 1 */
	int id_pos, is_pos;         /* perf's evlist id_pos / is_pos; -1 = none */
	bool id_pos_agree;          /* every attr gives the same positions */
	uint64_t last_id;           /* most recent id lookup */
	tk_perf_attr *last_id_attr; /* NULLed by tk_perf_map_id: the caches are stale */
	/* Recent id -> attr lookups: a recording has a few ids per attr (one per
	 * CPU or thread) and samples cycle through them, so a short scan beats
	 * the hash map. Valid while last_id_attr is not NULL. */
	struct {
		uint64_t id;
		tk_perf_attr *attr;
	} id_cache[PERF_ID_CACHE_SIZE];
	unsigned id_cache_n, id_cache_next;

	/* features */
	bool event_desc; /* an EVENT_DESC feature names the events */
	tk_perf_features feat;
	tk_perf_raw_feature *raw_feats;
	size_t n_raw_feats, cap_raw_feats;
	tk_perf_build_id *build_ids; /* growable (pipe HEADER_BUILD_ID) */
	size_t n_build_ids, cap_build_ids;
	tk_perf_tracing *tracing;

	/* ordering */
	perf_qentry *q; /* [q_head, q_sorted) sorted, [q_sorted, q_len) arrival order */
	size_t q_head, q_sorted, q_len, q_cap;
	perf_qentry *q_tmp; /* merge buffer */
	size_t *q_runs;     /* run starts for the natural merge sort */
	size_t q_tmp_cap;
	size_t q_ready; /* entries [q_head, q_ready) may be emitted */
	uint64_t q_max_time, q_next_flush, q_last_flush, q_last_time;
	uint64_t q_copy_bytes;
	perf_copy_chunk *copy_cur;
	const uint8_t *release_copy; /* copy to release at the next call */
	bool deferred_valid;         /* FINISHED_ROUND to emit after its flush */
	uint8_t deferred_bytes[16];
	tk_perf_record deferred;
	bool eof;
	/* attrs were added while records were queued: queued records find
	 * their attr again when emitted, as perf does at delivery */
	bool q_attrs_changed;
	bool warned_no_attr, warned_unordered, warned_queue, warned_id_pos;
	/* A read error after records were queued: they are delivered first
	 * (every complete record is printed), then this error. */
	tk_status pending_st;
	tk_error pending_err;

	/* Partial files. truncated: the data section runs past the end of the
	 * file (cut by head, a full disk): read to the end, then an error.
	 * unfinished: data size 0 in the header (perf record was killed):
	 * read to the last complete record, no features (never written). */
	bool data_truncated, unfinished;
	uint64_t data_declared_end;
	/* Records of a type no perf writes (tk_perf_type_invalid(), e.g. a
	 * corrupted 0xffffffff): returned raw, warned once, and the reader
	 * ends with an error, as perf fails on them. Unknown types below that
	 * are returned raw and warned once (perf counts "unknown events"). */
	uint64_t n_invalid, first_invalid_off;
	uint32_t first_invalid_type;
	bool warned_unknown_type;

	tk_perf_record cur;
};

/* perf's own record types end below PERF_RECORD_HEADER_MAX (about 90);
 * from 128 on a type is damage, not a newer perf, except simpleperf's
 * own records (SIMPLE_PERF_RECORD_TYPE_START 32768). */
static inline bool tk_perf_type_invalid(uint32_t type)
{
	return type >= 128 && (type < 0x8000 || type >= 0x8100);
}

/* ---- perf_attr.c ---- */
/* Decodes an attr of `size` bytes (>= 64) at p. */
void tk_perf_attr_decode(const uint8_t *p, size_t size, bool swap, tk_perf_attr *a);
/* Adds an attr (copied) with its ids; returns it or NULL (err set). */
tk_perf_attr *tk_perf_add_attr(tk_perf_file *f, const tk_perf_attr *a, const uint8_t *ids,
			       size_t n_ids, bool ids_swap, uint64_t offset, tk_error *err);
/* Maps an id to attr index (replacing an older mapping). */
tk_status tk_perf_map_id(tk_perf_file *f, uint64_t id, size_t attr_index, tk_error *err);
/* Fills in names of attrs that still have none (perf's names, tracepoints). */
void tk_perf_name_attrs(tk_perf_file *f, bool final);
/* Recomputes id_pos / is_pos after attrs change. */
void tk_perf_update_id_pos(tk_perf_file *f);
/* perf's name for (type, config), NULL when unknown. */
const char *tk_perf_event_default_name(uint32_t type, uint64_t config);

/* ---- perf_features.c ---- */
/* Decodes one feature section (also kept raw). offset = file offset or
 * UINT64_MAX for pipes. Malformed sections are warned about, not fatal. */
tk_status tk_perf_feature_decode(tk_perf_file *f, unsigned id, const uint8_t *data, uint64_t size,
				 uint64_t offset, tk_error *err);
/* Reads the feature section table of a file-mode header. */
tk_status tk_perf_read_features(tk_perf_file *f, tk_error *err);

/* ---- perf_records.c ---- */
/* Next record in file order (compressed records expanded). TK_END at the end. */
tk_status tk_perf_read_raw(tk_perf_file *f, tk_perf_record *r, tk_error *err);
void tk_perf_records_free(tk_perf_file *f);
/* Adds a build_id record ({header; pid; id[24]; filename}) to the features. */
bool tk_perf_build_id_record(tk_perf_file *f, const uint8_t *p, uint64_t size);

/* ---- perf_meta.c ---- */
/* Applies metadata records (attrs, features, id index, tracing data). */
tk_status tk_perf_apply_meta(tk_perf_file *f, tk_perf_record *r, tk_error *err);
/* Finds the attr and sample_id fields of a record (r->attr, r->sid, r->has_time). */
void tk_perf_classify(tk_perf_file *f, tk_perf_record *r);
/* The attr of a kernel record (evlist__event2evsel), NULL for user records
 * or when there are no attrs. */
const tk_perf_attr *tk_perf_find_attr(tk_perf_file *f, const tk_perf_record *r);
/* tk_perf_classify with the attr already known (a = r's attr, not NULL). */
void tk_perf_classify_with(tk_perf_file *f, tk_perf_record *r, const tk_perf_attr *a);
void tk_perf_warn(tk_perf_file *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- perf_sample.c ---- */
/* Parses the sample_id trailer of a non-sample kernel record. */
bool tk_perf_parse_trailer(const uint8_t *rec, uint32_t size, uint64_t sample_type, bool swap,
			   tk_perf_sample_id *sid);
/* Quick parse of the leading sample fields (identifier, tid, time, id, stream, cpu). */
bool tk_perf_parse_sample_head(const uint8_t *rec, uint32_t size, uint64_t sample_type, bool swap,
			       tk_perf_sample_id *sid);
/* Only the time of a sample: true when it has TIME and its leading fields
 * fit (the same condition as tk_perf_parse_sample_head). */
bool tk_perf_sample_time(const uint8_t *rec, uint32_t size, uint64_t sample_type, bool swap,
			 uint64_t *time);
/* Decodes a sample body with an explicit attr (fuzzing, tests). */
tk_status tk_perf_parse_sample_with(const tk_perf_attr *attr, bool swap, const uint8_t *rec,
				    uint32_t size, uint64_t offset, tk_perf_sample *out,
				    tk_error *err);

/* ---- perf_order.c ---- */
tk_status tk_perf_order_next(tk_perf_file *f, const tk_perf_record **out, tk_error *err);
void tk_perf_order_free(tk_perf_file *f);

#endif
