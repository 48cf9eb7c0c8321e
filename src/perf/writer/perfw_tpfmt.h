/* Tracepoint formats synthesized for model event classes: the flat field
 * layout of a class (what goes where in a RAW payload), its tracefs-style
 * format file, and the HEADER_TRACING_DATA section holding them all.
 *
 * A class's fields are the members of its stream context, context and
 * payload structs, nested structs flattened ("outer_inner"). Integers keep
 * their width (1, 2, 4 or 8 bytes) and sign, except that signed ones are at
 * least 4 bytes (libtraceevent prints a signed char -1 as 255); enums print
 * through __print_symbolic (negative values as the field's bit pattern,
 * which libtraceevent compares); strings are __data_loc char[]; byte blobs and arrays of
 * unsigned integers are __data_loc arrays; anything else (floats, variants, arrays
 * of structs) is rendered as text into a __data_loc string. Built once per
 * class; not thread-safe. */
#ifndef TK_PERFW_TPFMT_H
#define TK_PERFW_TPFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/writer.h"
#include "tracekit/tracekit.h"

#define PERFW_TP_MAX_FIELDS 256
#define PERFW_TP_MAX_DEPTH  8
/* common_type, common_flags, common_preempt_count, common_pid */
#define PERFW_TP_COMMON_SIZE 8

typedef enum perfw_fkind {
	PERFW_F_INT,    /* fixed integer */
	PERFW_F_STR,    /* __data_loc char[] from a string value */
	PERFW_F_BYTES,  /* __data_loc unsigned char[] */
	PERFW_F_INTARR, /* __data_loc uN[] from an array/sequence of unsigned ints */
	PERFW_F_TEXT,   /* __data_loc char[]: the value rendered as text */
} perfw_fkind;

typedef struct perfw_field {
	char *name;
	perfw_fkind kind;
	uint32_t offset, size; /* in the fixed part */
	bool is_signed;
	uint8_t elem_size; /* PERFW_F_INTARR */
	uint8_t root;      /* 0 stream context, 1 context, 2 payload */
	uint8_t depth;
	uint16_t path[PERFW_TP_MAX_DEPTH]; /* member indexes from the root struct */
	const tk_field_class *cls;
} perfw_field;

typedef struct perfw_tpclass {
	const tk_event_class *cls;
	uint16_t id; /* tracepoint id = common_type = attr config */
	char *name;  /* tracepoint name (C identifier) */
	perfw_field *fields;
	size_t n_fields;
	uint32_t fixed_size; /* common fields + fixed part */
	char *format;        /* the format file text */
	size_t format_len;
	bool truncated; /* fields past PERFW_TP_MAX_FIELDS dropped */
} perfw_tpclass;

/* Builds the layout and format of `cls` (whose events carry the given
 * stream context class, or NULL). text_arrays: integer arrays as text too
 * (libtraceevent's __print_array reads elements in the host's byte order,
 * so a file of the other order needs them as text). Returns TK_ERR_NOMEM
 * only. */
tk_status perfw_tpclass_build(perfw_tpclass *tc, const tk_event_class *cls,
			      const tk_field_class *stream_ctx, uint16_t id, bool text_arrays,
			      tk_error *err);
void perfw_tpclass_free(perfw_tpclass *tc);

/* HEADER_TRACING_DATA (version 0.6) holding one system with these
 * formats, integers in the given byte order. Memory writer, caller frees. */
tk_status perfw_tracing_data(const perfw_tpclass *const *classes, size_t n, const char *system,
			     bool big, tk_writer **out, tk_error *err);

/* Copies s to a C identifier (at most cap-1 chars, never empty). */
void perfw_identifier(const char *s, char *out, size_t cap);

#endif
