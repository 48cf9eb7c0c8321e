/* The logger's shared region (anonymous memory or a mapped file) and the
 * validated view that every dump and the crash-recovery reader walk.
 *
 * Region layout, host byte order (the header records it):
 *   header (4096 bytes)
 *   type table   max_types  x 256 bytes  {commit, n_args, kinds, format}
 *   track table  max_tracks x  64 bytes  {commit, pid, name}
 *   string table strtab_cap bytes        NUL-terminated strings, appended
 *   ring table   max_rings  x  64 bytes  {commit, pid, tid, track, head, dropped, slots_off}
 *   rings        max_rings  x ring_slots x 64-byte slots (tk_log__slot)
 * Every table entry has a commit word stored last (release), and every
 * count is claimed with an atomic fetch-add on the shared header, so
 * threads and processes sharing a file never need a lock to append, and a
 * reader ignores what was claimed but never committed. */
#ifndef TK_LOG_IMPL_H
#define TK_LOG_IMPL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracekit/log.h"

#define LG_MAGIC        "TKLOGv1\n"
#define LG_ENDIAN       0x01020304u
#define LG_HEADER_SIZE  4096u
#define LG_TYPE_SIZE    256u
#define LG_FORMAT_MAX   240u /* bytes of format kept, NUL included */
#define LG_TRACK_SIZE   64u
#define LG_TRACK_NAME   56u
#define LG_RING_SIZE    64u
#define LG_SLOT_SIZE    64u
#define LG_MAX_TYPES    1024u
#define LG_MAX_TRACKS   1024u
#define LG_MAX_RINGS    256u
#define LG_STRTAB_CAP   65536u
#define LG_CLOCK_TSC    1u
#define LG_CLOCK_MONO   2u
#define LG_CLOCK_COARSE 3u /* CLOCK_MONOTONIC_COARSE ns (TK_LOG_CLOCK_COARSE) */
#define LG_STR_WORDS    3u

typedef struct tk_lg_header {
	char magic[8];
	uint32_t endian, header_size;
	uint64_t file_size;
	uint32_t slot_size, max_types, max_tracks, max_rings;
	uint64_t types_off, tracks_off, strtab_off, strtab_cap, rings_dir_off, rings_off;
	uint64_t ring_slots;
	uint32_t mode, clock;
	_Atomic uint32_t n_types, n_tracks, n_rings, strtab_len;
	/* calibration: ticks and clocks at open, ticks per second measured then */
	uint64_t init_ticks, init_mono_ns, init_real_ns;
	double init_tps;
	/* the pair taken at the last stop or dump (end_valid != 0) */
	_Atomic uint32_t end_valid;
	uint32_t pad0;
	uint64_t end_ticks, end_mono_ns, end_real_ns;
	_Atomic uint64_t dropped_noring;
	uint32_t shared_ring; /* 1: one ring for all threads (elog's way) */
	uint32_t pad1;
} tk_lg_header;

typedef struct tk_lg_type_entry {
	_Atomic uint32_t commit;
	uint8_t n_args;
	char kinds[TK_LOG_MAX_ARGS + 1]; /* n_args kind letters, NUL */
	char format[LG_TYPE_SIZE - 12];
} tk_lg_type_entry;

typedef struct tk_lg_track_entry {
	_Atomic uint32_t commit;
	uint32_t pid;
	char name[LG_TRACK_NAME];
} tk_lg_track_entry;

struct tk_log__ring_dir {
	_Atomic uint32_t commit;
	uint32_t pid, tid, track;
	_Atomic uint64_t head;
	_Atomic uint64_t dropped;
	uint64_t slots_off;
	uint64_t pad[3];
};
typedef struct tk_log__ring_dir tk_lg_ring_dir;

_Static_assert(sizeof(tk_lg_header) <= LG_HEADER_SIZE, "header");
_Static_assert(sizeof(tk_lg_type_entry) == LG_TYPE_SIZE, "type entry");
_Static_assert(sizeof(tk_lg_track_entry) == LG_TRACK_SIZE, "track entry");
_Static_assert(sizeof(tk_lg_ring_dir) == LG_RING_SIZE, "ring entry");
_Static_assert(sizeof(tk_log__slot) == LG_SLOT_SIZE, "slot");
_Static_assert(offsetof(tk_log__slot, commit) == 0 && offsetof(tk_log__slot, type) == 4 &&
		   offsetof(tk_log__slot, track) == 6 && offsetof(tk_log__slot, time) == 8 &&
		   offsetof(tk_log__slot, w) == 16,
	       "slot layout (the file format)");

/* Words an argument kind takes in a slot; 0 for an unknown kind. */
unsigned tk_lg_kind_words(char k);
/* Bytes of the region for these parameters; 0 on overflow. */
uint64_t tk_lg_region_size(uint64_t ring_slots, uint32_t max_rings);
/* Lays out a zeroed region of tk_lg_region_size() bytes. */
void tk_lg_region_init(void *base, uint64_t size, uint64_t ring_slots, uint32_t max_rings,
		       tk_log_mode mode, unsigned clock, bool shared_ring);

/* ---- the view: a checked reading of a region ---- */

typedef struct tk_lg_vtype {
	const char *format; /* NUL-terminated inside the region */
	const char *kinds;
	unsigned n_args, words;
	size_t name_len; /* c2cpel's event name: format up to ' ', '%' or '(' */
} tk_lg_vtype;

typedef struct tk_lg_vring {
	const tk_log__slot *slots;
	uint64_t mask, begin, end; /* events [begin, end) may be valid */
	uint64_t dropped;
	uint32_t pid, tid;
} tk_lg_vring;

typedef struct tk_lg_view {
	const uint8_t *base;
	uint64_t size;
	const tk_lg_header *h;
	tk_lg_vtype types[LG_MAX_TYPES];
	unsigned n_types;
	const char *tracks[LG_MAX_TRACKS];
	unsigned n_tracks;
	const char *strtab;
	uint32_t strtab_len;
	tk_lg_vring rings[LG_MAX_RINGS];
	unsigned n_rings;
	uint64_t dropped;
	/* time: ticks -> seconds since init */
	uint64_t init_ticks, init_real_ns, init_mono_ns;
	double tps;
	uint64_t end_ticks, end_real_ns, end_mono_ns;
	uint64_t torn; /* slots in a window that failed their commit check */
	unsigned mode;
} tk_lg_view;

/* Builds a view of size bytes at base. Checks every header field, offset
 * and table entry, so a damaged file yields a smaller view or an error
 * (returns false and sets *why and *at to the reason and byte offset). */
bool tk_lg_view_open(tk_lg_view *v, const void *base, uint64_t size, const char **why,
		     uint64_t *at);

/* One event, copied out of its slot and checked. */
typedef struct tk_lg_event {
	uint64_t ticks;
	double seconds; /* since init */
	unsigned type, track, ring;
	uint64_t seq;
	uint64_t w[TK_LOG_MAX_ARGS];
} tk_lg_event;

/* Merges all rings by time (ties: ring order); no allocation. */
typedef struct tk_lg_iter {
	const tk_lg_view *v;
	uint64_t pos[LG_MAX_RINGS];
	bool have[LG_MAX_RINGS];
	tk_lg_event next[LG_MAX_RINGS];
	int track; /* < 0: every track */
} tk_lg_iter;

void tk_lg_iter_init(tk_lg_iter *it, const tk_lg_view *v, int track);
bool tk_lg_iter_next(tk_lg_iter *it, tk_lg_event *e);
double tk_lg_seconds(const tk_lg_view *v, uint64_t ticks);

/* ---- output: an fd with a buffer, or growable memory ---- */

typedef struct tk_lg_out {
	int fd;       /* >= 0: file */
	uint8_t *mem; /* fd < 0: malloc'd */
	size_t mem_cap;
	uint64_t pos; /* bytes emitted */
	uint64_t flushed;
	bool failed;
	uint8_t buf[16384];
	size_t n;
} tk_lg_out;

void tk_lg_out_fd(tk_lg_out *o, int fd);
void tk_lg_out_mem(tk_lg_out *o);
void tk_lg_out_bytes(tk_lg_out *o, const void *p, size_t n);
void tk_lg_out_u8(tk_lg_out *o, uint8_t v);
void tk_lg_out_be16(tk_lg_out *o, uint16_t v);
void tk_lg_out_be32(tk_lg_out *o, uint32_t v);
void tk_lg_out_le32(tk_lg_out *o, uint32_t v);
void tk_lg_out_le64(tk_lg_out *o, uint64_t v);
void tk_lg_out_str(tk_lg_out *o, const char *s);
void tk_lg_out_dec(tk_lg_out *o, uint64_t v);
/* Overwrites bytes already emitted at off. */
void tk_lg_out_patch(tk_lg_out *o, uint64_t off, const void *p, size_t n);
bool tk_lg_out_finish(tk_lg_out *o); /* flushes; false if anything failed */

/* ---- emitters (it: scratch, 25 KiB, kept off signal stacks) ---- */
bool tk_lg_emit_elog(tk_lg_out *o, const tk_lg_view *v, tk_lg_iter *it);
/* CPEL; file_date: seconds since 1970. Not async-signal-safe (%f). */
bool tk_lg_emit_cpel(tk_lg_out *o, const tk_lg_view *v, tk_lg_iter *it, uint32_t file_date);
/* CTF into an open directory; o: scratch output. Async-signal-safe. */
bool tk_lg_emit_ctf(int dirfd, const tk_lg_view *v, tk_lg_iter *it, tk_lg_out *o);

/* vppinfra-style text of an event (the format language of log.h) into
 * buf (cap bytes, always NUL-terminated); returns the length. */
size_t tk_lg_format_event(char *buf, size_t cap, const tk_lg_view *v, const tk_lg_event *e);

/* The recovered file as elog bytes in malloc'd memory (the reader side). */
bool tk_lg_recover_elog(const void *base, uint64_t size, uint8_t **out, size_t *out_len,
			const char **why, uint64_t *at);

#endif
