/* Column reading of a lean CTF reader (ctf_reader.h, `lean` set): each
 * merged event's class, time, cpu and byte offset written straight into
 * caller arrays, for readers that tabulate events (Python's
 * Source.columns() through the lean reader, context/lean_reader.h).
 *
 * The rows are those ctf_reader_next() would hand out one by one, in the
 * same order, with the same warnings, discard reports and errors; between
 * two merge decisions the top stream's events go through the lean fast
 * path (ctf_decode_event_fast, what `tracekit stats` runs) without a call
 * per event. Not thread-safe; the reader may be read on with
 * ctf_reader_next() afterwards. */
#ifndef TK_CTF_COLUMNS_H
#define TK_CTF_COLUMNS_H

#include "ctf/ctf_reader.h"

/* Each non-NULL array receives one value per event, from index 0, as
 * ctf_event_header() sets the model event: ts 0 when the event has no
 * time or a negative one; cpu TK_CPU_NONE when the packet has none. */
typedef struct ctf_columns {
	uint64_t *ts, *offset;
	int32_t *cpu;
	const tk_event_class **cls;
} ctf_columns;

/* Up to max events into c: *n rows written. TK_OK when max were written,
 * TK_END when the reader ended first, else an error (err has the file and
 * offset; the *n rows before it are written). */
tk_status ctf_reader_columns(ctf_reader *r, const ctf_columns *c, size_t max, size_t *n,
			     tk_error *err);

#endif
