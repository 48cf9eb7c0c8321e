/* CPEL reader: a validated, zero-copy view of a CPEL file (both byte
 * orders, version 1, sections in any order, several string tables).
 *
 * tk_cpel_load() checks every section header, count, table name and string
 * offset before anything uses them, and fails with an error naming the
 * section and the byte offset. Event records are not copied: callers walk
 * them with tk_cpel_event_at(). Datum string offsets (formats with %s) are
 * per event and are checked by whoever formats them.
 *
 * Everything points into the mapped input and the file's arena; it lives
 * until tk_cpel_close(). Not thread-safe. */
#ifndef TK_CPEL_READER_H
#define TK_CPEL_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/arena.h"
#include "base/hashmap.h"
#include "base/input.h"
#include "tracekit/tracekit.h"

enum {
	TK_CPEL_SECTION_BAD = 0,
	TK_CPEL_SECTION_STRTAB = 1,
	TK_CPEL_SECTION_SYMTAB = 2,
	TK_CPEL_SECTION_EVTDEF = 3,
	TK_CPEL_SECTION_TRACKDEF = 4,
	TK_CPEL_SECTION_EVENT = 5,
};

#define TK_CPEL_FILE_HEADER    8
#define TK_CPEL_SECTION_HEADER 8
#define TK_CPEL_TABLE_NAME     64
#define TK_CPEL_EVENT_SIZE     20
#define TK_CPEL_LITTLE_ENDIAN  0x80

typedef struct tk_cpel_section {
	uint32_t type;
	uint32_t length; /* data bytes after the 8-byte header */
	uint64_t offset; /* of the section header */
	const uint8_t *data;
} tk_cpel_section;

typedef struct tk_cpel_strtab {
	const char *name; /* the first string */
	const char *data;
	uint32_t size;
	uint64_t offset; /* of the section data */
} tk_cpel_strtab;

typedef struct tk_cpel_evtdef {
	uint32_t code;
	const char *name_format; /* NUL-terminated inside its string table */
	const char *datum_format;
	bool datum_is_string; /* cpeldump's test: an 's' after any '%' */
} tk_cpel_evtdef;

typedef struct tk_cpel_trackdef {
	uint32_t track;
	const char *format;
} tk_cpel_trackdef;

typedef struct tk_cpel_symbol {
	uint32_t value;
	const char *name;
} tk_cpel_symbol;

typedef struct tk_cpel_symtab {
	const tk_cpel_strtab *strtab;
	const tk_cpel_symbol *symbols;
	uint32_t count;
} tk_cpel_symtab;

typedef struct tk_cpel_events {
	const tk_cpel_strtab *strtab; /* datum strings */
	uint32_t count;
	uint32_t ticks_per_second;
	const uint8_t *records; /* count x 20 bytes, file byte order */
	uint64_t offset;        /* file offset of the first record */
	uint64_t section_offset;
} tk_cpel_events;

typedef struct tk_cpel_event {
	uint64_t time; /* ticks */
	uint32_t track, code, datum;
} tk_cpel_event;

typedef struct tk_cpel_file {
	tk_input *input; /* NULL when loaded from memory */
	const uint8_t *data;
	uint64_t size;
	bool swap; /* file order differs from host order */
	bool little_endian;
	uint8_t version;
	uint16_t nsections;
	uint32_t file_date;
	tk_arena arena;
	tk_cpel_section *sections;
	size_t n_sections;
	tk_cpel_strtab *strtabs;
	size_t n_strtabs;
	tk_cpel_symtab *symtabs;
	size_t n_symtabs;
	tk_cpel_evtdef *evtdefs; /* first definition of each code, file order */
	size_t n_evtdefs;
	tk_cpel_trackdef *trackdefs;
	size_t n_trackdefs;
	tk_cpel_events *event_sections;
	size_t n_event_sections;
	uint64_t n_events;
	size_t n_unknown_sections;
	size_t n_duplicate_defs;
	tk_hashmap evtdef_by_code; /* code -> index + 1 */
	tk_hashmap trackdef_by_code;
	/* cpeldump's column widths: longest raw format, at least 5 */
	size_t widest_name_format, widest_track_format;
} tk_cpel_file;

/* Opens and validates path (mmapped). Warnings go to log. */
tk_status tk_cpel_open(const char *path, tk_log_fn log, void *log_user, tk_cpel_file **out,
		       tk_error *err);
/* Validates bytes owned by the caller (kept, not copied). */
tk_status tk_cpel_open_memory(const void *data, size_t size, const char *name, tk_log_fn log,
			      void *log_user, tk_cpel_file **out, tk_error *err);
void tk_cpel_close(tk_cpel_file *f); /* NULL is fine */

bool tk_cpel_detect(const uint8_t *head, size_t n);

static inline uint32_t tk_cpel_u32(const tk_cpel_file *f, const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return f->swap ? __builtin_bswap32(v) : v;
}

static inline tk_cpel_event tk_cpel_event_at(const tk_cpel_file *f, const tk_cpel_events *s,
					     uint32_t i)
{
	const uint8_t *p = s->records + (size_t)i * TK_CPEL_EVENT_SIZE;
	tk_cpel_event e;
	e.time = (uint64_t)tk_cpel_u32(f, p) << 32 | tk_cpel_u32(f, p + 4);
	e.track = tk_cpel_u32(f, p + 8);
	e.code = tk_cpel_u32(f, p + 12);
	e.datum = tk_cpel_u32(f, p + 16);
	return e;
}

/* One event record and where it is. */
typedef struct tk_cpel_record {
	const tk_cpel_events *section;
	size_t section_index;
	uint32_t index; /* in its section */
	tk_cpel_event event;
	uint64_t offset; /* of the record in the file */
} tk_cpel_record;

/* The one walk over a file's events: every EVENT section in file order,
 * every record in it. Zero it, set f, then call tk_cpel_cursor_next()
 * until it returns false. Resident memory stays flat: the mapped pages
 * behind the cursor are released as it goes. */
typedef struct tk_cpel_cursor {
	const tk_cpel_file *f;
	size_t section;
	uint32_t next;
	tk_cpel_record rec;
} tk_cpel_cursor;

static inline bool tk_cpel_cursor_next(tk_cpel_cursor *c)
{
	const tk_cpel_file *f = c->f;
	while (c->section < f->n_event_sections && c->next >= f->event_sections[c->section].count) {
		c->section++;
		c->next = 0;
	}
	if (c->section >= f->n_event_sections)
		return false;
	const tk_cpel_events *s = &f->event_sections[c->section];
	uint32_t i = c->next++;
	uint64_t off = s->offset + (uint64_t)i * TK_CPEL_EVENT_SIZE;
	if ((i & 0xffff) == 0 && f->input)
		tk_input_release(f->input, off);
	c->rec.section = s;
	c->rec.section_index = c->section;
	c->rec.index = i;
	c->rec.event = tk_cpel_event_at(f, s, i);
	c->rec.offset = off;
	return true;
}

const tk_cpel_evtdef *tk_cpel_find_evtdef(const tk_cpel_file *f, uint32_t code);
const tk_cpel_trackdef *tk_cpel_find_trackdef(const tk_cpel_file *f, uint32_t track);

/* The NUL-terminated string at off in t, or NULL when off is past the
 * table or the string runs off its end. */
const char *tk_cpel_string(const tk_cpel_strtab *t, uint32_t off, size_t *len);

const char *tk_cpel_section_name(uint32_t type);

#endif
