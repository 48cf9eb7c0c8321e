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
	size_t cap = 1 << 16, n = 0;
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

bool tk_symtext_hex(const char *s, size_t n, size_t *i, uint64_t *out)
{
	size_t p = *i;
	if (p + 1 < n && s[p] == '0' && (s[p + 1] == 'x' || s[p + 1] == 'X'))
		p += 2;
	size_t start = p;
	uint64_t v = 0;
	while (p < n) {
		char c = s[p];
		unsigned d;
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			d = (unsigned)((c | 0x20) - 'a' + 10);
		else
			break;
		if (p - start == 16)
			return false;
		v = v << 4 | d;
		p++;
	}
	if (p == start)
		return false;
	*i = p;
	*out = v;
	return true;
}
