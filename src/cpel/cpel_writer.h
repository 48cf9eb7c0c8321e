/* CPEL writer: collects one string table, event and track definitions and
 * events, then writes a file laid out as VPP's c2cpel does (header, STRTAB
 * "FileStrtab" padded to 8 bytes, EVTDEF, TRACKDEF, EVENT), big-endian
 * version 1 by default or little-endian on request.
 *
 * Strings are deduplicated; the first string is the table name. Events are
 * kept in memory until tk_cpel_writer_commit() because the string table must
 * precede them. Not thread-safe. */
#ifndef TK_CPEL_WRITER_H
#define TK_CPEL_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/writer.h"
#include "tracekit/tracekit.h"

typedef struct tk_cpel_writer tk_cpel_writer;

#define TK_CPEL_WRITER_TABLE "FileStrtab"

tk_cpel_writer *tk_cpel_writer_new(void);    /* NULL when out of memory */
void tk_cpel_writer_free(tk_cpel_writer *w); /* NULL is fine */

/* Offset of s (len bytes, no NUL inside) in the table, added if new.
 * Returns false when out of memory or when the table would pass 4 GiB. */
bool tk_cpel_writer_string(tk_cpel_writer *w, const char *s, size_t len, uint32_t *off);
/* The table's bytes so far (for c2cpel's sort by track name). */
const char *tk_cpel_writer_strtab(const tk_cpel_writer *w, size_t *size);

bool tk_cpel_writer_event_def(tk_cpel_writer *w, uint32_t code, uint32_t name_off,
			      uint32_t datum_off);
bool tk_cpel_writer_track_def(tk_cpel_writer *w, uint32_t track, uint32_t format_off);
bool tk_cpel_writer_event(tk_cpel_writer *w, uint64_t ticks, uint32_t track, uint32_t code,
			  uint32_t datum);

/* Direct access for fix-ups before commit (c2cpel renumbers tracks). */
size_t tk_cpel_writer_n_events(const tk_cpel_writer *w);
uint32_t *tk_cpel_writer_event_track(tk_cpel_writer *w, size_t i);

/* Writes the file atomically. */
tk_status tk_cpel_writer_commit(tk_cpel_writer *w, const char *path, bool little_endian,
				uint32_t file_date, uint32_t ticks_per_second, tk_error *err);

/* The same bytes into any writer (memory writers included); not committed. */
tk_status tk_cpel_writer_emit(tk_cpel_writer *w, tk_writer *o, bool little_endian,
			      uint32_t file_date, uint32_t ticks_per_second, tk_error *err);

#endif
