/* Shared helpers of the text symbol loaders. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/symtext.h"

tk_status tk_symtext_read(const char *path, size_t limit, char **text, size_t *len, tk_error *err)
{
	return tk_symtext_read_until(path, limit, NULL, text, len, err);
}

tk_status tk_symtext_read_until(const char *path, size_t limit, const atomic_bool *stop,
				char **text, size_t *len, tk_error *err)
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
		if (stop && atomic_load(stop)) {
			st = tk_error_set(err, TK_ERR_INTERRUPTED, n, "stopped: not needed");
			break;
		}
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
		/* stoppable: 256 KiB per read, a few ms of the kernel's
		 * formatting of /proc/kallsyms */
		size_t want = cap - n;
		if (stop && want > ((size_t)256 << 10))
			want = (size_t)256 << 10;
		ssize_t r = read(fd, buf + n, want);
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

/* The 8 hex digits at s (either case) as a number; false when one is
 * not a hex digit. Each byte is tested and converted in parallel within
 * a word (no byte is >= 0x80 once the first test passed, so the adds
 * below never carry into the next byte). */
static bool hex8(const char *s, uint64_t *out)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	uint64_t x;
	memcpy(&x, s, 8);
	if (x & high)
		return false;
	/* byte in [lo, hi]: (b + 0x80 - lo) has bit 7, (b + 0x80 - hi - 1) not */
	uint64_t digit = (x + ones * (0x80 - '0')) & ~(x + ones * (0x80 - '9' - 1));
	uint64_t folded = x | ones * 0x20; /* 'A'..'F' -> 'a'..'f' */
	uint64_t letter = (folded + ones * (0x80 - 'a')) & ~(folded + ones * (0x80 - 'f' - 1));
	if (((digit | letter) & high) != high)
		return false;
	/* digits: low nibble; letters: low nibble + 9 (bit 6 set) */
	uint64_t v = (x & ones * 0x0f) + ((x >> 6) & ones) * 9;
	/* byte k (the k-th digit, most significant first) to nibble 7 - k */
	v = ((v & 0x000f000f000f000full) << 4) | ((v & 0x0f000f000f000f00ull) >> 8);
	v = ((v & 0x000000ff000000ffull) << 8) | ((v & 0x00ff000000ff0000ull) >> 16);
	v = ((v & 0x000000000000ffffull) << 16) | ((v & 0x0000ffff00000000ull) >> 32);
	*out = v;
	return true;
}

bool tk_symtext_hex(const char *s, size_t n, size_t *i, uint64_t *out)
{
	size_t p = *i;
	if (p + 1 < n && s[p] == '0' && (s[p + 1] == 'x' || s[p + 1] == 'X'))
		p += 2;
	size_t start = p;
	uint64_t v = 0;
	unsigned d;
	if (n - p > 16 && !hex_plus1[(uint8_t)s[p + 16]]) {
		/* 16 digits then a non-digit: a 64-bit kallsyms address, 8
		 * digits at a time in a word (120 k of them per kallsyms:
		 * a table lookup per digit was a tenth of a cold run) */
		uint64_t hi, lo;
		if (hex8(s + p, &hi) && hex8(s + p + 8, &lo)) {
			*i = p + 16;
			*out = hi << 32 | lo;
			return true;
		}
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
