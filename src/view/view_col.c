/* Growable byte columns and the time / u32 encodings of view_internal.h. */
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

bool view_put_u32e(view_col *c, view_col *ovf, uint64_t v)
{
	if (v < VIEW_ESCAPE)
		return view_col_u32(c, (uint32_t)v);
	return view_col_u32(c, VIEW_ESCAPE) && view_col_f64(ovf, (double)v);
}

bool view_put_time(view_col *t, view_col *ovf, uint64_t prev, uint64_t v)
{
	if (v >= prev && v - prev < VIEW_ESCAPE)
		return view_col_u32(t, (uint32_t)(v - prev));
	double d = v >= prev ? (double)(v - prev) : -(double)(prev - v);
	return view_col_u32(t, VIEW_ESCAPE) && view_col_f64(ovf, d);
}
