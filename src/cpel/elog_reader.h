/* VPP event log ("elog v0", vppinfra serialize format) reader.
 *
 * Layout (src/vppinfra/elog.c serialize_elog_main): magic, ring size, two
 * time stamps, event types {format, format_args, type_index+1, enum
 * strings}, track names, the string heap, events {u16 type, u16 track, f64
 * time, arguments per format_args}. Integers are big-endian; 64-bit values
 * are two big-endian u32, low word first; cstrings have a "likely small"
 * varint length.
 *
 * tk_elog_load() validates everything (every length against what remains,
 * every type and track index, every format_args spec) and records where
 * each event's arguments start; tk_elog_event_text() formats an event as
 * vppinfra's format_elog_event does, safely.
 *
 * Everything lives until tk_elog_close(). Not thread-safe. */
#ifndef TK_CPEL_ELOG_READER_H
#define TK_CPEL_ELOG_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/input.h"
#include "base/writer.h"
#include "cpel/safe_format.h"
#include "tracekit/tracekit.h"

#define TK_ELOG_MAX_ARGS 64

typedef struct tk_elog_str {
	const char *s; /* NUL-terminated copy */
	size_t len;
} tk_elog_str;

typedef struct tk_elog_type {
	tk_elog_str format;
	tk_elog_str args; /* format_args, e.g. "i4i4", "t4", "T4", "s0", "f8" */
	uint32_t index_plus_one;
	uint32_t n_enum;
	tk_elog_str *enums;
	/* parsed format_args */
	uint8_t n_args;
	char arg_kind[TK_ELOG_MAX_ARGS]; /* i t T f s */
	uint8_t arg_bytes[TK_ELOG_MAX_ARGS];
} tk_elog_type;

typedef struct tk_elog_event {
	uint16_t type, track;
	double time;     /* seconds since the log's init time */
	uint64_t offset; /* of the event in the file */
	uint64_t args_offset;
} tk_elog_event;

typedef struct tk_elog_file {
	tk_input *input;
	const uint8_t *data;
	uint64_t size;
	uint32_t ring_size;
	uint64_t serialize_os_nsec, serialize_cpu, init_os_nsec, init_cpu;
	tk_elog_type *types;
	uint32_t n_types;
	tk_elog_str *tracks;
	uint32_t n_tracks;
	const char *heap; /* string heap, as stored */
	uint32_t heap_len;
	tk_elog_event *events;
	uint32_t n_events;
	tk_arena arena;
	void *owned; /* malloc'd bytes freed by tk_elog_close(), or NULL */
} tk_elog_file;

bool tk_elog_detect(const uint8_t *head, size_t n);
tk_status tk_elog_open(const char *path, tk_elog_file **out, tk_error *err);
tk_status tk_elog_open_memory(const void *data, size_t size, const char *name, tk_elog_file **out,
			      tk_error *err);
void tk_elog_close(tk_elog_file *f); /* NULL is fine */
/* As tk_elog_open_memory, and the file owns data (malloc'd) from then on,
 * even when opening fails. */
tk_status tk_elog_open_owned(void *data, size_t size, const char *name, tk_elog_file **out,
			     tk_error *err);

/* Decodes event e's arguments into args (at most TK_ELOG_MAX_ARGS) for the
 * safe formatter: enum and heap strings resolved (NULL when out of range). */
size_t tk_elog_event_args(const tk_elog_file *f, const tk_elog_event *e, tk_fmt_arg *args);

/* Writes the event's text as format_elog_event would. */
void tk_elog_event_text(tk_writer *w, const tk_elog_file *f, const tk_elog_event *e);

#endif
