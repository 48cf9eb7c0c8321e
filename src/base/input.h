/* Input medium: a byte source the decoders ask for ranges, so decoding is
 * separate from I/O. Regular files are mmapped (zero-copy, pointers valid
 * until close); pipes and stdin ("-") are streamed through a bounded
 * buffer (pointers valid until the next fetch or release).
 * Not thread-safe (the populate-ahead helper is internal). */
#ifndef TK_BASE_INPUT_H
#define TK_BASE_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracekit/status.h"

typedef struct tk_input tk_input;

/* Largest single range a stream fetch may ask for. */
#define TK_INPUT_MAX_FETCH ((size_t)1 << 30)

/* path "-" = stdin. Errors name the path in err. */
tk_status tk_input_open(const char *path, tk_input **out, tk_error *err);
/* Wraps memory owned by the caller (fuzzers, tests). Not copied. */
tk_status tk_input_open_memory(const void *data, size_t size, const char *name, tk_input **out,
			       tk_error *err);
/* Streams from an fd the caller keeps owning (tests of pipe mode). */
tk_status tk_input_open_fd_stream(int fd, const char *name, tk_input **out, tk_error *err);
void tk_input_close(tk_input *in); /* NULL is fine */

const char *tk_input_name(const tk_input *in);
bool tk_input_is_stream(const tk_input *in);
/* Total size, or UINT64_MAX for a stream. */
uint64_t tk_input_size(const tk_input *in);
/* Whole content for mapped inputs and memory, NULL for streams. */
const uint8_t *tk_input_data(const tk_input *in);

/* Makes bytes [off, off+len) available at *p.
 * TK_OK: all len bytes are there. TK_END: off is exactly the end of input.
 * TK_ERR_TRUNCATED: the input ends inside the range (err has the offset).
 * On a stream, off must not be below the release mark; going forward past
 * buffered data reads and drops the bytes in between. */
tk_status tk_input_fetch(tk_input *in, uint64_t off, size_t len, const uint8_t **p, tk_error *err);
/* Stream: the bytes before off are no longer needed. No-op when mapped. */
void tk_input_release(tk_input *in, uint64_t off);
/* For a reader that goes forward through a mapped file of 8 MiB or more
 * and reports its offset through tk_input_release (stats' lean scan):
 * a helper thread maps the pages ahead of it; tk_input_close joins it.
 * A no-op for other inputs and with TRACEKIT_THREADS=0. Call from the
 * reader's thread. */
void tk_input_populate_ahead(tk_input *in);

#endif
