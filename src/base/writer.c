/* Buffered writer, number formatting and atomic files; see writer.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/output_path.h"
#include "base/writer.h"

#define WRITER_BUF_SIZE (1u << 20)
/* A memory writer's first buffer; it doubles as it fills. print's lanes
 * hold ten at once (their chunks, ~360 KB of -g text, and two sinks that
 * take one record at a time): at a megabyte each, mostly never written,
 * they took 10 MB of the CLI's heap, which is on huge pages
 * (cli_heap.c), and fresh memory is costly on a VM (bench/README,
 * session 39). */
#define MEMORY_FIRST_SIZE (64u << 10)
/* below this a copy into the buffer is cheaper than a write of its own */
#define WRITER_DIRECT_MIN (16u << 10)

static tk_status writer_new(int fd, bool own, size_t cap, tk_writer **out, tk_error *err)
{
	tk_writer *w = calloc(1, sizeof *w);
	if (w)
		w->buf = malloc(cap);
	if (!w || !w->buf) {
		free(w);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET,
				    "cannot allocate output buffer");
	}
	w->cap = cap;
	w->fd = fd;
	w->own_fd = own;
	*out = w;
	return TK_OK;
}

tk_status tk_writer_open_fd(int fd, const char *name, tk_writer **out, tk_error *err)
{
	(void)name;
	return writer_new(fd, false, WRITER_BUF_SIZE, out, err);
}

tk_status tk_writer_open_memory(tk_writer **out, tk_error *err)
{
	return writer_new(-1, false, MEMORY_FIRST_SIZE, out, err);
}

/* A temporary beside `path` (same file system, so rename is atomic), hidden
 * so a half-written output is never mistaken for the real one. */
static tk_status open_temp(const char *path, const char *shown, tk_writer **out, tk_error *err)
{
	size_t n = strlen(path) + 32;
	char *tmp = malloc(n);
	char *final = strdup(path);
	if (!tmp || !final) {
		free(tmp);
		free(final);
		tk_error_set_file(err, shown);
		return tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	}
	const char *slash = strrchr(path, '/');
	int dirlen = slash ? (int)(slash - path + 1) : 0;
	snprintf(tmp, n, "%.*s.%s.tk-XXXXXX", dirlen, path, slash ? slash + 1 : path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		tk_error_set_file(err, shown);
		tk_status st = tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "cannot create %s: %s",
					    tmp, strerror(errno));
		free(tmp);
		free(final);
		return st;
	}
	/* a replaced file keeps its permissions (a private output stays
	 * private); a new one gets the usual 0644 */
	struct stat sb;
	fchmod(fd, stat(path, &sb) == 0 && S_ISREG(sb.st_mode) ? sb.st_mode & 07777 : 0644);
	tk_status st = writer_new(fd, true, WRITER_BUF_SIZE, out, err);
	if (st != TK_OK) {
		tk_error_set_file(err, shown);
		close(fd);
		unlink(tmp);
		free(tmp);
		free(final);
		return st;
	}
	(*out)->path = final;
	(*out)->tmp_path = tmp;
	(*out)->seekable = true;
	return TK_OK;
}

tk_status tk_writer_open_atomic(const char *path, tk_writer **out, tk_error *err)
{
	/* The output's name goes on the error only when something about the
	 * output fails: set on success it would stay behind and blame the
	 * output for a later error in the input. */
	tk_output_path op;
	tk_status st = tk_output_path_resolve(path, &op, err);
	if (st != TK_OK)
		return st;
	switch (op.kind) {
	case TK_OUTPUT_ABSENT:
	case TK_OUTPUT_REGULAR: st = open_temp(op.path, path, out, err); break;
	case TK_OUTPUT_STREAM:
	case TK_OUTPUT_STDOUT: {
		int fd = tk_output_path_open_stream(&op, err);
		if (fd < 0) {
			st = TK_ERR_IO;
			break;
		}
		bool own = op.kind == TK_OUTPUT_STREAM;
		if ((st = writer_new(fd, own, WRITER_BUF_SIZE, out, err)) != TK_OK) {
			if (own)
				close(fd);
			break;
		}
		(*out)->path = strdup(path);
		/* the shell's descriptors ("-", /dev/stdout) may be appending:
		 * never written at an offset */
		(*out)->seekable = op.kind == TK_OUTPUT_STREAM && lseek(fd, 0, SEEK_CUR) >= 0;
		break;
	}
	case TK_OUTPUT_DIR:
	case TK_OUTPUT_OTHER:
		tk_error_set_file(err, path);
		st = tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "%s: not written over",
				  op.kind == TK_OUTPUT_DIR ? "is a directory"
							   : "is a block device or special file");
		break;
	}
	tk_output_path_free(&op);
	return st;
}

const char *tk_writer_data(const tk_writer *w, size_t *len)
{
	*len = w->pos;
	return w->buf;
}

static void write_out(tk_writer *w)
{
	size_t done = 0;
	while (done < w->pos && !w->error) {
		ssize_t n = write(w->fd, w->buf + done, w->pos - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			w->error = n < 0 ? errno : EIO;
		else
			done += (size_t)n;
	}
	w->written += w->pos;
	w->pos = 0;
}

void tk_put_mem_direct(tk_writer *w, const void *p, size_t n)
{
	if (w->fd < 0 || n < WRITER_DIRECT_MIN) {
		tk_put_mem(w, p, n);
		return;
	}
	write_out(w); /* what is buffered comes first */
	const char *c = p;
	size_t done = 0;
	while (done < n && !w->error) {
		ssize_t k = write(w->fd, c + done, n - done);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			w->error = k < 0 ? errno : EIO;
		else
			done += (size_t)k;
	}
	w->written += n;
}

bool tk_writer_reserve_slow(tk_writer *w, size_t n)
{
	if (w->fd >= 0) {
		write_out(w);
		if (w->cap - w->pos >= n)
			return !w->error;
	}
	size_t cap = w->cap;
	while (cap - w->pos < n)
		cap *= 2;
	char *nb = realloc(w->buf, cap);
	if (!nb) {
		w->error = ENOMEM;
		return false;
	}
	w->buf = nb;
	w->cap = cap;
	return true;
}

tk_status tk_writer_flush(tk_writer *w, tk_error *err)
{
	if (w->fd >= 0)
		write_out(w);
	if (w->error) {
		tk_error_set_file(err, w->path);
		return tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "write failed: %s",
				    strerror(w->error));
	}
	return TK_OK;
}

tk_status tk_writer_commit(tk_writer *w, tk_error *err)
{
	tk_status st = tk_writer_flush(w, err);
	if (st == TK_OK && w->tmp_path) {
		if (close(w->fd) != 0)
			st = tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "close failed: %s",
					  strerror(errno));
		w->fd = -1;
		if (st == TK_OK && rename(w->tmp_path, w->path) != 0)
			st = tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET,
					  "cannot rename into place: %s", strerror(errno));
		if (st != TK_OK)
			tk_error_set_file(err, w->path);
		if (st == TK_OK) {
			free(w->tmp_path);
			w->tmp_path = NULL;
		}
	} else if (st == TK_OK && w->own_fd && w->fd >= 0) {
		/* written through: a device may report its error only now */
		int fd = w->fd;
		w->fd = -1;
		if (close(fd) != 0) {
			tk_error_set_file(err, w->path);
			st = tk_error_set(err, TK_ERR_IO, TK_NO_OFFSET, "close failed: %s",
					  strerror(errno));
		}
	}
	tk_writer_abort(w);
	return st;
}

void tk_writer_abort(tk_writer *w)
{
	if (!w)
		return;
	if (w->tmp_path) {
		if (w->fd >= 0)
			close(w->fd);
		unlink(w->tmp_path);
		w->fd = -1;
	}
	if (w->own_fd && w->fd >= 0)
		close(w->fd);
	free(w->tmp_path);
	free(w->path);
	free(w->buf);
	free(w);
}

/* Number of decimal digits of v. */
static unsigned dec_digits(uint64_t v)
{
	static const uint64_t pow10[] = {
	    10ULL,
	    100ULL,
	    1000ULL,
	    10000ULL,
	    100000ULL,
	    1000000ULL,
	    10000000ULL,
	    100000000ULL,
	    1000000000ULL,
	    10000000000ULL,
	    100000000000ULL,
	    1000000000000ULL,
	    10000000000000ULL,
	    100000000000000ULL,
	    1000000000000000ULL,
	    10000000000000000ULL,
	    100000000000000000ULL,
	    1000000000000000000ULL,
	    10000000000000000000ULL,
	};
	unsigned n = 1;
	while (n < 20 && v >= pow10[n - 1])
		n++;
	return n;
}

const char tk_digit_pairs[201] = "00010203040506070809"
				 "10111213141516171819"
				 "20212223242526272829"
				 "30313233343536373839"
				 "40414243444546474849"
				 "50515253545556575859"
				 "60616263646566676869"
				 "70717273747576777879"
				 "80818283848586878889"
				 "90919293949596979899";

/* Writes the digits straight into place, two at a time from the end: no
 * temporary and no variable-length copy. */
size_t tk_fmt_u64(char *buf, uint64_t v)
{
	size_t n = dec_digits(v);
	char *p = buf + n;
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);
		v /= 100;
		p -= 2;
		memcpy(p, tk_digit_pairs + 2 * r, 2);
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, tk_digit_pairs + 2 * v, 2);
	} else {
		*--p = (char)('0' + v);
	}
	return n;
}

void tk_put_u64(tk_writer *w, uint64_t v)
{
	if (!tk_writer_reserve(w, 24))
		return;
	w->pos += tk_fmt_u64(w->buf + w->pos, v);
}

void tk_put_i64(tk_writer *w, int64_t v)
{
	if (v < 0) {
		tk_put_char(w, '-');
		tk_put_u64(w, (uint64_t)0 - (uint64_t)v);
	} else {
		tk_put_u64(w, (uint64_t)v);
	}
}

void tk_put_u64_pad(tk_writer *w, uint64_t v, unsigned width, char pad)
{
	char tmp[24];
	size_t n = tk_fmt_u64(tmp, v);
	for (size_t i = n; i < width; i++)
		tk_put_char(w, pad);
	tk_put_mem(w, tmp, n);
}

void tk_put_i64_pad(tk_writer *w, int64_t v, unsigned width)
{
	char tmp[24];
	size_t n;
	if (v < 0) {
		tmp[0] = '-';
		n = 1 + tk_fmt_u64(tmp + 1, (uint64_t)0 - (uint64_t)v);
	} else {
		n = tk_fmt_u64(tmp, (uint64_t)v);
	}
	for (size_t i = n; i < width; i++)
		tk_put_char(w, ' ');
	tk_put_mem(w, tmp, n);
}

/* Two lowercase hex digits per byte value. */
static const char hex2[513] = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
			      "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
			      "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
			      "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
			      "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
			      "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
			      "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
			      "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

/* Hex digits of v, at least `width` (<= 16) of them: the length comes from
 * the leading zero count, then two digits per byte from the table. */
static size_t fmt_hex(char *buf, uint64_t v, unsigned width)
{
	unsigned n = v ? (unsigned)(64 - __builtin_clzll(v) + 3) / 4 : 1;
	if (n < width)
		n = width;
	char *p = buf + n;
	while (p - buf >= 2) {
		p -= 2;
		memcpy(p, hex2 + 2 * (v & 0xff), 2);
		v >>= 8;
	}
	if (p > buf)
		*--p = hex2[2 * (v & 0xf) + 1];
	return n;
}

size_t tk_fmt_hex(char *buf, uint64_t v)
{
	return fmt_hex(buf, v, 0);
}

void tk_put_hex(tk_writer *w, uint64_t v)
{
	if (tk_writer_reserve(w, 16))
		w->pos += fmt_hex(w->buf + w->pos, v, 0);
}

void tk_put_hex_pad(tk_writer *w, uint64_t v, unsigned width)
{
	if (width > 16) {
		tk_put_spaces(w, 0);
		for (unsigned i = 16; i < width; i++)
			tk_put_char(w, '0');
		width = 16;
	}
	if (tk_writer_reserve(w, 16))
		w->pos += fmt_hex(w->buf + w->pos, v, width);
}

void tk_put_oct(tk_writer *w, uint64_t v)
{
	char tmp[24];
	size_t n = 0;
	do {
		tmp[n++] = (char)('0' + (v & 7));
		v >>= 3;
	} while (v);
	while (n)
		tk_put_char(w, tmp[--n]);
}

void tk_put_bin(tk_writer *w, uint64_t v, unsigned width)
{
	for (unsigned i = width; i-- > 0;)
		tk_put_char(w, (char)('0' + ((v >> i) & 1)));
}

void tk_put_spaces(tk_writer *w, unsigned n)
{
	while (n--)
		tk_put_char(w, ' ');
}

void tk_put_double(tk_writer *w, double v, const char *printf_fmt)
{
	char tmp[64];
	int n = snprintf(tmp, sizeof tmp, printf_fmt ? printf_fmt : "%g", v);
	if (n > 0)
		tk_put_mem(w, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* Length of the valid UTF-8 sequence at s (max n bytes), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len;
	uint32_t min;
	if (c < 0x80)
		return 1;
	if ((c & 0xE0) == 0xC0) {
		len = 2;
		min = 0x80;
	} else if ((c & 0xF0) == 0xE0) {
		len = 3;
		min = 0x800;
	} else if ((c & 0xF8) == 0xF0) {
		len = 4;
		min = 0x10000;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	uint32_t cp = c & (0x7F >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3F);
	}
	if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return len;
}

void tk_put_json_u64_slow(tk_writer *w, uint64_t v)
{
	tk_put_char(w, '"');
	tk_put_u64(w, v);
	tk_put_char(w, '"');
}

void tk_put_json_i64(tk_writer *w, int64_t v)
{
	/* magnitude without overflow for INT64_MIN */
	uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	if (mag <= TK_JSON_EXACT_MAX) {
		tk_put_i64(w, v);
		return;
	}
	tk_put_char(w, '"');
	tk_put_i64(w, v);
	tk_put_char(w, '"');
}

void tk_put_json_hex(tk_writer *w, uint64_t v)
{
	tk_put_lit(w, "\"0x");
	tk_put_hex(w, v);
	tk_put_char(w, '"');
}

void tk_put_json_str(tk_writer *w, const char *s, size_t n)
{
	static const char hexdig[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	tk_put_char(w, '"');
	size_t i = 0;
	while (i < n) {
		size_t run = i;
		while (run < n && p[run] >= 0x20 && p[run] < 0x80 && p[run] != '"' &&
		       p[run] != '\\')
			run++;
		if (run > i) {
			tk_put_mem(w, p + i, run - i);
			i = run;
			continue;
		}
		unsigned char c = p[i];
		if (c == '"' || c == '\\') {
			char e[2] = {'\\', (char)c};
			tk_put_mem(w, e, 2);
			i++;
		} else if (c == '\n') {
			tk_put_mem(w, "\\n", 2);
			i++;
		} else if (c == '\t') {
			tk_put_mem(w, "\\t", 2);
			i++;
		} else if (c == '\r') {
			tk_put_mem(w, "\\r", 2);
			i++;
		} else if (c < 0x20) {
			char e[6] = {'\\', 'u', '0', '0', hexdig[c >> 4], hexdig[c & 15]};
			tk_put_mem(w, e, 6);
			i++;
		} else {
			size_t len = utf8_len(p + i, n - i);
			if (len) {
				tk_put_mem(w, p + i, len);
				i += len;
			} else {
				tk_put_mem(w, "\\ufffd", 6);
				i++;
			}
		}
	}
	tk_put_char(w, '"');
}

void tk_put_fmt(tk_writer *w, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char tmp[512];
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof tmp) {
		tk_put_mem(w, tmp, (size_t)n);
		return;
	}
	if (!tk_writer_reserve(w, (size_t)n + 1))
		return;
	va_start(ap, fmt);
	vsnprintf(w->buf + w->pos, (size_t)n + 1, fmt, ap);
	va_end(ap);
	w->pos += (size_t)n;
}
