/* tracekit status codes and the caller-owned error object.
 *
 * Not meant to be included alone: include <tracekit/tracekit.h>.
 *
 * tk_status: negative = error, 0 = TK_OK, positive = flow control (TK_END).
 * The enum and tk_status_str() are generated from one X-macro list so they
 * can never disagree.
 *
 * tk_error is owned by the caller and filled by the library on failure: the
 * status, a message, the input's name and the byte offset where the input
 * went wrong (TK_NO_OFFSET when the failure is not tied to a position).
 * The library keeps no global error state. */
#ifndef TRACEKIT_STATUS_H
#define TRACEKIT_STATUS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#define TK_STATUS_LIST(X)                                                                          \
	X(TK_OK, 0, "ok")                                                                          \
	X(TK_END, 1, "end of input")                                                               \
	X(TK_ERR_IO, -1, "input/output error")                                                     \
	X(TK_ERR_NOMEM, -2, "out of memory")                                                       \
	X(TK_ERR_FORMAT, -3, "malformed input")                                                    \
	X(TK_ERR_TRUNCATED, -4, "truncated input")                                                 \
	X(TK_ERR_UNSUPPORTED, -5, "unsupported")                                                   \
	X(TK_ERR_USAGE, -6, "invalid argument")                                                    \
	X(TK_ERR_LIMIT, -7, "limit exceeded")                                                      \
	X(TK_ERR_NOT_FOUND, -8, "not found")                                                       \
	X(TK_ERR_INTERRUPTED, -9, "interrupted")

typedef enum tk_status {
#define TK_STATUS_ENUM(name, value, text) name = value,
	TK_STATUS_LIST(TK_STATUS_ENUM)
#undef TK_STATUS_ENUM
} tk_status;

/* Static string for a status; "unknown status" for values outside the list. */
const char *tk_status_str(tk_status status);

/* tk_error.offset when the error is not tied to a byte of the input (a file
 * that cannot be opened, out of memory, a bad argument): print no offset. */
#define TK_NO_OFFSET UINT64_MAX

typedef struct tk_error {
	tk_status status;
	uint64_t offset; /* byte offset in `file`, or TK_NO_OFFSET */
	char file[256];  /* input (or output) name; "" when none */
	char message[512];
} tk_error;

/* Resets err to "no error". err may be NULL (then nothing happens). */
void tk_error_clear(tk_error *err);

/* Fills err (may be NULL) and returns status, so that callers can write
 * `return tk_error_set(err, TK_ERR_FORMAT, off, "bad size %u", n);`.
 * Keeps err->file if already set. */
tk_status tk_error_set(tk_error *err, tk_status status, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
tk_status tk_error_setv(tk_error *err, tk_status status, uint64_t offset, const char *fmt,
			va_list ap) __attribute__((format(printf, 4, 0)));

/* Sets the file name shown with the error (truncated to fit). */
void tk_error_set_file(tk_error *err, const char *file);

/* Interruption (Ctrl-C): tk_interrupt() is async-signal-safe, for a signal
 * handler. Readers then end at the next whole record with
 * TK_ERR_INTERRUPTED, so what was written stays complete. */
void tk_interrupt(void);
bool tk_interrupt_pending(void);
void tk_interrupt_reset(void);

/* Log callback for warnings (the library never prints). level: 0 = warning,
 * 1 = info, 2 = debug. msg is valid only during the call. */
typedef void (*tk_log_fn)(void *user, int level, const char *msg);

#endif
