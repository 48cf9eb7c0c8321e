/* Growable byte columns (the time / u32 encodings are inline in view_internal.h). */
#include <stdlib.h>
#include <string.h>

#include "view/view_internal.h"

bool view_col_grow(view_col *c, size_t n)
{
	if (c->cap - c->n >= n)
		return true;
	size_t cap = c->cap ? c->cap : 256;
	while (cap - c->n < n)
		cap *= 2;
	uint8_t *q = realloc(c->p, cap);
	if (!q)
		return false;
	c->p = q;
	c->cap = cap;
	return true;
}

void view_col_free(view_col *c)
{
	free(c->p);
	memset(c, 0, sizeof *c);
}
