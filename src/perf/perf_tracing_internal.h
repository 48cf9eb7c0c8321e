/* Internals shared by the HEADER_TRACING_DATA parser (perf_tracing.c), the
 * ftrace format-file parser (perf_tracing_format.c), the RAW decoder
 * (perf_tracing_decode.c) and the print-fmt renderer
 * (perf_tracing_render.c). Not part of the public API.
 *
 * Everything a tk_perf_tracing owns lives in its arena (format texts,
 * fields, classes, decode plans) except the format table and the id map,
 * which grow with malloc/realloc and are freed by tk_perf_tracing_free(). */
#ifndef TK_PERF_TRACING_INTERNAL_H
#define TK_PERF_TRACING_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/hashmap.h"
#include "tracekit/tracekit.h"

/* How the decoder reads one field; chosen once per format so the
 * per-event path is a switch on a byte, not string work. */
typedef enum tp_plan_kind {
	TP_PLAN_INT,        /* scalar of size 1, 2, 4 or 8 */
	TP_PLAN_BYTES,      /* fixed region we cannot type (odd size, struct) */
	TP_PLAN_STRING,     /* char array: string cut at the first NUL */
	TP_PLAN_ARRAY,      /* fixed array of ints */
	TP_PLAN_DYN_STRING, /* __data_loc / __rel_loc char[] */
	TP_PLAN_DYN_SEQ,    /* __data_loc / __rel_loc array of ints */
	TP_PLAN_DYN_BYTES,  /* __data_loc / __rel_loc of unknown elements */
} tp_plan_kind;

/* Everything the decoder needs of a field, packed together so a payload
 * is decoded from one small array (the public tk_perf_tp_field is bigger
 * and only read again for error messages). */
typedef struct tp_plan {
	uint8_t kind;      /* tp_plan_kind */
	uint8_t elem_size; /* ints: 1, 2, 4 or 8 */
	bool is_signed;
	bool relative; /* __rel_loc: offset counts from the end of the field */
	uint32_t offset, size;
	uint32_t count;             /* TP_PLAN_ARRAY: elements */
	const tk_field_class *cls;  /* class of the value */
	const tk_field_class *elem; /* arrays and sequences: class of an element */
} tp_plan;

/* One parsed format. `pub` comes first so a tk_perf_tp_format pointer
 * handed out by the parser converts back to this. */
typedef struct tp_format_impl {
	tk_perf_tp_format pub;
	const struct tk_perf_tracing *owner; /* guards tk_perf_tp_decode() */
	tp_plan *plans;                      /* n_fields */
	uint32_t min_raw_size;               /* end of the furthest fixed field */
} tp_format_impl;

struct tp_renderer;

struct tk_perf_tracing {
	tk_arena arena;
	bool big_endian;
	bool swap; /* file order differs from the host's */
	uint32_t long_size;
	uint32_t page_size;
	const char *version;
	const char *header_page, *header_event;
	size_t header_page_len, header_event_len;
	tp_format_impl **formats; /* malloc'd table, in file order */
	size_t n_formats, cap_formats;
	tk_hashmap by_id; /* format id -> index in formats */
	const char *kallsyms, *printk, *cmdlines;
	size_t kallsyms_len, printk_len, cmdlines_len;
	/* print-fmt renderer state, built on first use (see
	 * perf_tracing_render.c); NULL until then */
	struct tp_renderer *render;
	bool render_failed;
	tk_perf_ksym_fn ksym_fn; /* kernel symbols for %pS/%ps, or NULL */
	void *ksym_user;
};

/* Parses one tracefs `format` file (text, len bytes) of `system` into out.
 * text_offset is the file offset of text[0], for error messages. Copies
 * everything it keeps into arena. */
tk_status tp_format_parse(tk_arena *arena, const char *system, const uint8_t *text, size_t len,
			  uint32_t long_size, uint64_t text_offset, tp_format_impl *out,
			  tk_error *err);

/* Checks that raw holds every fixed field of fmt and that every
 * __data_loc / __rel_loc points inside raw (offsets in err are relative to
 * raw[0]). The renderer runs this before handing raw to libtraceevent. */
tk_status tp_validate_raw(const struct tk_perf_tracing *tr, const tk_perf_tp_format *fmt,
			  const uint8_t *raw, uint32_t raw_size, tk_error *err);

/* Releases the renderer state (no-op without libtraceevent). */
void tp_render_free(struct tk_perf_tracing *tr);

#endif
