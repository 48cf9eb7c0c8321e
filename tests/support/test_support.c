/* Unit-test helpers; see test_support.h. */
#include <stdio.h>
#include <stdlib.h>

#include "test_support.h"

const char *tk_test_data(const char *rel)
{
	static char buf[4096];
	const char *root = getenv("TK_TESTDATA");
	snprintf(buf, sizeof buf, "%s/%s", root ? root : "../shared/testdata", rel);
	return buf;
}

uint8_t *tk_test_read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf = malloc(cap + 1);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			cap *= 2;
			uint8_t *nb = realloc(buf, cap + 1);
			if (!nb) {
				free(buf);
				buf = NULL;
			}
			buf = nb;
		}
	}
	fclose(f);
	if (buf) {
		buf[n] = 0;
		*size = n;
	}
	return buf;
}
