/* A tracepoint's fields as perf's own `perf data convert --to-ctf` shows
 * them (tools/perf/util/data-convert-bt.c), for the perf source's model:
 * - every field, the common ones (common_type, common_flags,
 *   common_preempt_count, common_pid) first;
 * - libtraceevent's flags decide the type: char/u8/s8 arrays and
 *   __data_loc char[] are strings; other ints are u32/s32, or u64/s64 when
 *   8 bytes wide, or hexadecimal u64 when unsigned and long or a pointer;
 *   fixed arrays keep their length with that element type;
 * - non-printable string bytes are written as \xNN, as perf does;
 * - names as babeltrace2 prints perf's: a clash takes a _dupl_N suffix,
 *   and one leading '_' is dropped (babeltrace2 drops it from TSDL names;
 *   the CTF writer adds it back when a name starts with '_').
 *
 * A view is built once per tracepoint (allocated in the caller's class
 * arena, no free) and then converts each event's decoded values without
 * malloc: strings point into the raw data unless they need escaping, and
 * arrays take their items from the scratch arena. */
#ifndef TK_PERF_TP_VIEW_H
#define TK_PERF_TP_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "tracekit/tracekit.h"

typedef struct tpv_field tpv_field;

typedef struct tp_view {
	const tk_perf_tp_format *fmt;
	tk_member *members; /* fmt->n_fields: name and class of each field */
	tpv_field *fields;  /* how to convert each decoded value */
	size_t n;
} tp_view;

/* Builds the view of fmt in arena. `taken` (n_taken names) are the
 * members that come before the tracepoint's in the event payload (perf_ip,
 * perf_tid...): a field named like one of them is renamed as perf does.
 * Returns NULL when out of memory. */
tp_view *perf_tp_view_build(tk_arena *arena, const tk_perf_tp_format *fmt, const tk_member *taken,
			    size_t n_taken);

/* Converts the values tk_perf_tp_decode() gave (decoded[n], common first)
 * from raw (raw_size bytes: the payload they were decoded from; NULL when
 * unknown) into out[n] typed as the view says; decoded NULL gives zeros and
 * empty strings (a payload that failed to decode). Strings read as perf
 * reads them: up to a NUL, even past the field's end (never past raw's).
 * Items and escaped strings are allocated in scratch. Returns false when
 * scratch is out of memory. */
bool perf_tp_view_values(const tp_view *v, const tk_value *decoded, const uint8_t *raw,
			 uint32_t raw_size, tk_arena *scratch, tk_value *out);

/* A string as perf's converter stores it: bytes 0x01-0x1f, 0x7f and
 * 0x80-0x9f (not printable for the kernel's ctype, which perf uses) as
 * \xNN. Returns str itself when nothing needs escaping, NULL when scratch
 * is out of memory. */
const char *perf_ctf_escape(const char *str, size_t len, tk_arena *scratch, size_t *out_len);

#endif
