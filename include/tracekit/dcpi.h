/* DCPI profiles (dcpiformat(4)): reader, writer and profile databases.
 *
 * Not meant to be included alone: include <tracekit/tracekit.h>.
 *
 * A profile holds the samples of one event for one image: an ASCII header
 * (`key value` lines ended by a `samples` line) and, for major version 0
 * (pdb-0.06, pdb-0.07), a binary body of chunks of little-endian u32 counts
 * and an 8-byte footer. pdb-1.x bodies were never documented: their header
 * is read, their body is reported as TK_ERR_UNSUPPORTED.
 *
 * Ownership: a tk_dcpi_profile owns its input (mmapped file or borrowed
 * caller memory for tk_dcpi_open_memory, which must outlive the profile).
 * Every pointer it hands out (header lines, values, chunk counts) stays
 * valid until tk_dcpi_close(). Not thread-safe; one profile per thread.
 * Functions taking a tk_error accept NULL for it. */
#ifndef TRACEKIT_DCPI_H
#define TRACEKIT_DCPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "status.h"

/* ---- Reader ---------------------------------------------------------- */

typedef struct tk_dcpi_profile tk_dcpi_profile;

/* One header line as it appears in the file (without its newline). */
typedef struct tk_dcpi_line {
	const char *text; /* the whole line; not NUL-terminated */
	size_t len;
	size_t key_len;    /* text[0..key_len) is the key */
	const char *value; /* rest of the line after the separating blanks */
	size_t value_len;
	uint64_t offset; /* byte offset of the line in the file */
	bool known;      /* a required or optional line of the grammar */
} tk_dcpi_line;

/* The header, parsed. Strings are NUL-terminated copies owned by the
 * profile; optional ones are NULL when absent. */
typedef struct tk_dcpi_header {
	unsigned major, minor; /* from "version pdb-<major>.<minor>" */
	const char *version;   /* "pdb-0.07" */
	const char *image;     /* hex image id */
	const char *epoch;     /* YYMMDDHHMM or YYYYMMDDHHMMSS (UTC) */
	const char *platform;
	const char *event;
	uint64_t period;
	uint64_t tstart; /* hex in the file */
	uint64_t tsize;  /* decimal in the file */
	uint64_t cpuspeed;
	bool has_cpuamask, has_cpuimplv, has_cpucount;
	uint64_t cpuamask, cpuimplv, cpucount;
	const char *path;
	const tk_dcpi_line *lines; /* every line before `samples`, file order */
	size_t n_lines;
	uint64_t header_size; /* bytes up to and including the terminator's newline */
} tk_dcpi_header;

/* A run of counts for consecutive addresses tstart + offset + i. */
typedef struct tk_dcpi_chunk {
	uint32_t offset;
	uint32_t n;
	const uint8_t *counts; /* n little-endian u32; read with tk_dcpi_chunk_count() */
	uint64_t file_offset;  /* where the chunk starts in the file */
} tk_dcpi_chunk;

static inline uint32_t tk_dcpi_chunk_count(const tk_dcpi_chunk *c, uint32_t i)
{
	const uint8_t *p = c->counts + 4 * (size_t)i;
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Opens and fully validates a profile: header grammar (required lines
 * exactly once, optional lines at most once, values well-formed) and, for
 * major version 0, every chunk (sorted, non-overlapping, inside the file)
 * and the footer totals. A pdb-1.x profile opens with its header only
 * (tk_dcpi_body_supported() is false). Any other major version, or any
 * malformed byte, fails with err giving the offset. */
tk_status tk_dcpi_open(const char *path, tk_dcpi_profile **out, tk_error *err);
tk_status tk_dcpi_open_memory(const void *data, size_t size, const char *name,
			      tk_dcpi_profile **out, tk_error *err);
void tk_dcpi_close(tk_dcpi_profile *p); /* NULL is fine */

const tk_dcpi_header *tk_dcpi_profile_header(const tk_dcpi_profile *p);
/* The whole file (for byte-identical copies) and its size. */
const uint8_t *tk_dcpi_profile_bytes(const tk_dcpi_profile *p, size_t *size);
const char *tk_dcpi_profile_name(const tk_dcpi_profile *p);
bool tk_dcpi_body_supported(const tk_dcpi_profile *p);
/* Footer totals (validated): addresses with a sample, sum of the counts. */
uint64_t tk_dcpi_total_offsets(const tk_dcpi_profile *p);
uint64_t tk_dcpi_total_samples(const tk_dcpi_profile *p);
uint64_t tk_dcpi_chunk_total(const tk_dcpi_profile *p); /* number of chunks */

/* Chunk iteration in file (= address) order: set *cursor to 0, then call
 * until it returns TK_END. TK_ERR_UNSUPPORTED (with err) for pdb-1.x. */
tk_status tk_dcpi_next_chunk(const tk_dcpi_profile *p, uint64_t *cursor, tk_dcpi_chunk *out,
			     tk_error *err);

/* Calls fn for every address with a non-zero count, in address order
 * (address = tstart + chunk offset + index): the walk every renderer and
 * profile loader of a DCPI profile makes. A return other than TK_OK stops
 * it and is returned; TK_OK at the end. */
typedef tk_status (*tk_dcpi_count_fn)(void *user, uint64_t addr, uint32_t count, tk_error *err);
tk_status tk_dcpi_each_count(const tk_dcpi_profile *p, tk_dcpi_count_fn fn, void *user,
			     tk_error *err);

/* Checks a header value against the grammar for `key`: "hex", "dec",
 * "time", "version" or anything else (free text, non-empty). Exposed for
 * the writer and the tests. */
bool tk_dcpi_value_ok(const char *key, const char *value, size_t len);

/* ---- Writer ---------------------------------------------------------- */

/* What a writer puts in a header. NULL strings are omitted when optional
 * (path, cpu*) and rejected when required. */
typedef struct tk_dcpi_fields {
	const char *version; /* NULL = "pdb-0.07"; only pdb-0.x can be written */
	const char *image;   /* hex id, e.g. a build id */
	const char *epoch;   /* YYMMDDHHMM; see tk_dcpi_format_epoch() */
	const char *platform;
	const char *event;
	uint64_t period;
	uint64_t tstart;
	uint64_t tsize;
	uint64_t cpuspeed; /* MHz; 0 is written as 0 */
	const char *path;  /* optional */
	bool has_cpucount;
	uint64_t cpucount;
	/* Extra lines written verbatim after the known ones ("key value",
	 * no newline); each must be a valid header line. */
	const char *const *extra_lines;
	size_t n_extra;
} tk_dcpi_fields;

/* One (offset from tstart -> count) pair. */
typedef struct tk_dcpi_sample {
	uint64_t offset;
	uint64_t count;
} tk_dcpi_sample;

/* Writes a complete profile atomically. samples need not be sorted and may
 * repeat offsets (counts are summed); zero counts are dropped. Offsets must
 * fit the format's u32 and counts are summed in u64 but stored as u32
 * (TK_ERR_LIMIT beyond). samples is sorted in place. */
tk_status tk_dcpi_write(const char *path, const tk_dcpi_fields *f, tk_dcpi_sample *samples,
			size_t n, tk_error *err);

/* Writes a header with the spec's padding (to a multiple of 4 bytes, with
 * spaces after `samples`) into a caller buffer; returns the bytes needed
 * (call with cap 0 to size it), or 0 with err set on invalid fields. */
size_t tk_dcpi_format_header(const tk_dcpi_fields *f, char *buf, size_t cap, tk_error *err);

/* "YYMMDDHHMM" (UTC) for t into buf[11]. */
void tk_dcpi_format_epoch(time_t t, char buf[11]);

/* Accumulates counts for one profile (perf -> DCPI: one per image and
 * event). add() is O(1) amortised (hash map); write() sorts once. */
typedef struct tk_dcpi_builder tk_dcpi_builder;
tk_dcpi_builder *tk_dcpi_builder_new(void);
bool tk_dcpi_builder_add(tk_dcpi_builder *b, uint64_t offset,
			 uint64_t count); /* false: no memory */
uint64_t tk_dcpi_builder_samples(const tk_dcpi_builder *b);
tk_status tk_dcpi_builder_write(tk_dcpi_builder *b, const char *path, const tk_dcpi_fields *f,
				tk_error *err);
void tk_dcpi_builder_free(tk_dcpi_builder *b);

/* ---- Profile databases: DB/<epoch>/<host>/<profile files> ------------- */

/* Creates DB/<epoch>/<host>/ (and parents) and writes <file> there
 * atomically. file must be a plain name (no '/'). */
tk_status tk_dcpi_db_write(const char *db, const char *epoch, const char *host, const char *file,
			   const tk_dcpi_fields *f, tk_dcpi_sample *samples, size_t n,
			   tk_error *err);
/* Same directory layout; returns the malloc'd directory path in *dir. */
tk_status tk_dcpi_db_mkdir(const char *db, const char *epoch, const char *host, char **dir,
			   tk_error *err);
/* A file name for a profile of (image, event): "<image>_<event>.prof" with
 * characters outside [A-Za-z0-9._-] replaced by '_'. Returns strlen. */
size_t tk_dcpi_db_file_name(const char *image, const char *event, char *buf, size_t cap);

/* True when path is a directory laid out as a profile database (or an
 * epoch or host directory of one) holding at least one profile. */
bool tk_dcpi_db_detect(const char *path);

/* Lists every profile below path (a database, an epoch or host directory,
 * or a single profile file) in sorted path order. *paths is malloc'd, each
 * string too; free with tk_dcpi_db_free_list(). Files that are not DCPI
 * profiles (no `version pdb-` first line) are skipped. */
tk_status tk_dcpi_db_list(const char *path, char ***paths, size_t *n, tk_error *err);
void tk_dcpi_db_free_list(char **paths, size_t n);

#endif
