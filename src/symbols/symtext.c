/* Shared helpers of the text symbol loaders. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/symtext.h"

tk_status tk_symtext_read(const char *path, size_t limit, char **text, size_t *len, tk_error *err)
{
	*text = NULL;
	*len = 0;
	tk_error_set_file(err, path);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return tk_error_set(err, errno == ENOENT ? TK_ERR_NOT_FOUND : TK_ERR_IO,
				    TK_NO_OFFSET, "cannot open: %s", strerror(errno));
	/* /proc/kallsyms is several MiB: start big rather than copy on every
	 * doubling (a large malloc is mapped lazily: a small file touches
	 * only its own pages) */
	size_t cap = limit < ((size_t)8 << 20) ? limit : (size_t)8 << 20, n = 0;
	if (cap == 0)
		cap = 1;
	char *buf = malloc(cap);
	tk_status st = TK_OK;
	while (buf) {
		if (n == cap) {
			if (cap >= limit) {
				st = tk_error_set(err, TK_ERR_LIMIT, n,
						  "file is larger than %zu bytes", limit);
				break;
			}
			char *nb = realloc(buf, cap * 2);
			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			st = tk_error_set(err, TK_ERR_IO, n, "read failed: %s", strerror(errno));
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (st == TK_OK && !buf)
		st = tk_error_set(err, TK_ERR_NOMEM, TK_NO_OFFSET, "out of memory");
	if (st != TK_OK) {
		free(buf);
		return st;
	}
	*text = buf;
	*len = n;
	return TK_OK;
}

/* Hex digit value + 1; 0 for any other byte. */
static const uint8_t hex_plus1[256] = {
    ['0'] = 1,  ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,  ['6'] = 7,  ['7'] = 8,
    ['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
    ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

bool tk_symtext_hex(const char *s, size_t n, size_t *i, uint64_t *out)
{
	size_t p = *i;
	if (p + 1 < n && s[p] == '0' && (s[p + 1] == 'x' || s[p + 1] == 'X'))
		p += 2;
	size_t start = p;
	uint64_t v = 0;
	unsigned d;
	if (n - p > 16 && !hex_plus1[(uint8_t)s[p + 16]]) {
		/* 16 digits then a non-digit: a 64-bit kallsyms address, with
		 * no branch per digit (the loop below costs 3x as much) */
		unsigned bad = 0;
		for (size_t k = 0; k < 16; k++) {
			d = hex_plus1[(uint8_t)s[p + k]];
			bad |= d == 0;
			v = v << 4 | ((d - 1) & 15);
		}
		if (!bad) {
			*i = p + 16;
			*out = v;
			return true;
		}
		v = 0;
	}
	/* a table lookup per digit: 100k+ kallsyms addresses of 16 digits */
	while (p < n && (d = hex_plus1[(uint8_t)s[p]]) != 0) {
		if (p - start == 16)
			return false;
		v = v << 4 | (d - 1);
		p++;
	}
	if (p == start)
		return false;
	*i = p;
	*out = v;
	return true;
}
