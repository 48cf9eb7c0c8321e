/* Buffered output with hand-written number formatting (no printf on the
 * per-event path) and atomic file creation.
 *
 * A writer owns a large buffer; the tk_put_* calls append to it and flush
 * when full. Write errors are sticky and reported by tk_writer_flush() and
 * tk_writer_commit(). File writers created with tk_writer_open_atomic()
 * follow output_path.h: a new or regular file is written to a temporary
 * name beside the target and renamed on commit, so the target appears
 * complete or not at all; a device, FIFO or socket is written through and
 * "-" is stdout; a directory is refused. Not thread-safe. */
#ifndef TK_BASE_WRITER_H
#define TK_BASE_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tracekit/status.h"

typedef struct tk_writer {
	char *buf;
	size_t pos;
	size_t cap;
	int fd; /* -1: memory writer (buffer grows) */
	bool own_fd;
	int error;        /* errno of the first failed write, 0 if none */
	uint64_t written; /* bytes handed to the fd so far */
	char *path;       /* atomic: final path */
	char *tmp_path;   /* atomic: temporary path */
	bool seekable;    /* output accepts pwrite (regular file, /dev/null) */
} tk_writer;

/* A write to the fd failed (the reader left: `| head`; a full disk):
 * nothing more can go out. The printers that can run long stop there
 * (the CLI ignores SIGPIPE); the error is reported, or a closed pipe
 * exits 0, when the output is committed. */
static inline bool tk_writer_failed(const tk_writer *w)
{
	return __builtin_expect(w->error != 0, 0) && w->fd >= 0;
}

tk_status tk_writer_open_fd(int fd, const char *name, tk_writer **out, tk_error *err);
tk_status tk_writer_open_atomic(const char *path, tk_writer **out, tk_error *err);
tk_status tk_writer_open_memory(tk_writer **out, tk_error *err);
/* Memory writers: the bytes written so far (not NUL-terminated). */
const char *tk_writer_data(const tk_writer *w, size_t *len);
tk_status tk_writer_flush(tk_writer *w, tk_error *err);
/* Flushes, renames an atomic file into place, frees w. */
tk_status tk_writer_commit(tk_writer *w, tk_error *err);
/* Frees w; an atomic file's temporary is removed. NULL is fine. */
void tk_writer_abort(tk_writer *w);
/* Offset of the next byte, counting from the start of the output. */
static inline uint64_t tk_writer_tell(const tk_writer *w)
{
	return w->written + w->pos;
}

/* Makes room for n bytes; slow path of the puts below. */
bool tk_writer_reserve_slow(tk_writer *w, size_t n);

static inline bool tk_writer_reserve(tk_writer *w, size_t n)
{
	return w->cap - w->pos >= n || tk_writer_reserve_slow(w, n);
}

static inline void tk_put_mem(tk_writer *w, const void *p, size_t n)
{
	if (tk_writer_reserve(w, n)) {
		memcpy(w->buf + w->pos, p, n);
		w->pos += n;
	}
}

/* tk_put_mem for large blocks: what is buffered is written first, then
 * p straight from the caller's memory, without the copy into the buffer
 * (the recorder writes its mmap rings this way: one copy, into the page
 * cache, as perf record makes). Small blocks and memory writers append. */
void tk_put_mem_direct(tk_writer *w, const void *p, size_t n);

static inline void tk_put_char(tk_writer *w, char c)
{
	if (tk_writer_reserve(w, 1))
		w->buf[w->pos++] = c;
}

static inline void tk_put_str(tk_writer *w, const char *s)
{
	tk_put_mem(w, s, strlen(s));
}

/* A string literal, without strlen. */
#define tk_put_lit(w, lit) tk_put_mem((w), lit, sizeof(lit) - 1)

void tk_put_u64(tk_writer *w, uint64_t v);                               /* decimal */
void tk_put_i64(tk_writer *w, int64_t v);                                /* decimal */
void tk_put_u64_pad(tk_writer *w, uint64_t v, unsigned width, char pad); /* right-aligned */
void tk_put_i64_pad(tk_writer *w, int64_t v, unsigned width);            /* right-aligned, spaces */
void tk_put_hex(tk_writer *w, uint64_t v);                               /* lowercase, no prefix */
void tk_put_hex_pad(tk_writer *w, uint64_t v, unsigned width);           /* zero-padded */
void tk_put_oct(tk_writer *w, uint64_t v);
void tk_put_bin(tk_writer *w, uint64_t v, unsigned width);
void tk_put_spaces(tk_writer *w, unsigned n);
/* %g-like shortest round-trip double, as printf("%g") does for readability. */
void tk_put_double(tk_writer *w, double v, const char *printf_fmt);
/* A JSON string with quotes; bytes that are not valid UTF-8 become \uFFFD. */
void tk_put_json_str(tk_writer *w, const char *s, size_t n);
/* JSON integers: a JSON reader holds numbers in doubles, exact only up to
 * 2^53, so larger magnitudes are written as decimal strings
 * ("18446744073709551615") and smaller ones as numbers. Addresses are
 * "0x..." strings whatever their value (perf data convert --to-json's form). */
#define TK_JSON_EXACT_MAX (UINT64_C(1) << 53)
void tk_put_json_u64_slow(tk_writer *w, uint64_t v);
static inline void tk_put_json_u64(tk_writer *w, uint64_t v)
{
	if (v <= TK_JSON_EXACT_MAX)
		tk_put_u64(w, v);
	else
		tk_put_json_u64_slow(w, v);
}
void tk_put_json_i64(tk_writer *w, int64_t v);
void tk_put_json_hex(tk_writer *w, uint64_t v);

/* printf; not for per-event paths. */
void tk_put_fmt(tk_writer *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Formats v in decimal into buf (at least 21 bytes); returns the length. */
size_t tk_fmt_u64(char *buf, uint64_t v);
/* "00" "01" ... "99": two decimal digits of n at tk_digit_pairs + 2 * n
 * (the fast decimal printers write two digits a step). */
extern const char tk_digit_pairs[201];
/* Formats v in lowercase hex, no prefix, into buf (at least 16 bytes). */
size_t tk_fmt_hex(char *buf, uint64_t v);

#endif
