/* The one walk over a DCPI profile's counts: every address with samples,
 * in address order, one per call. tk_dcpi_each_count, the model source and
 * the native session (src/session/session_dcpi.c) all step this cursor.
 * Zero it and set p; then call tk_dcpi_cursor_next() until it returns
 * TK_END. Not thread-safe; the profile must outlive it. */
#ifndef TK_DCPI_DCPI_CURSOR_H
#define TK_DCPI_DCPI_CURSOR_H

#include "tracekit/tracekit.h"

typedef struct tk_dcpi_cursor {
	const tk_dcpi_profile *p;
	uint64_t chunks; /* tk_dcpi_next_chunk's cursor */
	tk_dcpi_chunk chunk;
	uint32_t index; /* next count in chunk */
	bool have_chunk;
	/* the current count */
	uint64_t addr; /* tstart + chunk offset + index */
	uint32_t count;
	uint64_t offset; /* of the count in the file */
} tk_dcpi_cursor;

/* TK_OK with the next non-zero count in c->addr/count/offset, TK_END after
 * the last, or the chunk reader's error (TK_ERR_UNSUPPORTED for pdb-1.x). */
static inline tk_status tk_dcpi_cursor_next(tk_dcpi_cursor *c, tk_error *err)
{
	for (;;) {
		while (c->have_chunk && c->index < c->chunk.n) {
			uint32_t i = c->index++;
			uint32_t v = tk_dcpi_chunk_count(&c->chunk, i);
			if (!v)
				continue;
			c->addr = tk_dcpi_profile_header(c->p)->tstart + c->chunk.offset + i;
			c->count = v;
			c->offset = c->chunk.file_offset + 8 + 4 * (uint64_t)i;
			return TK_OK;
		}
		tk_status st = tk_dcpi_next_chunk(c->p, &c->chunks, &c->chunk, err);
		if (st != TK_OK)
			return st;
		c->have_chunk = true;
		c->index = 0;
	}
}

#endif
