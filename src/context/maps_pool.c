/* Map arrays from huge-page chunks; see maps_pool.h. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/hugemem.h"
#include "context/maps_pool.h"

#define CHUNK       ((size_t)2 << 20)
#define FIRST_CHUNK ((size_t)256 << 10)

/* The class of capacity 8 << k holding at least n entries;
 * TK_MAPS_POOL_CLASSES when none does. */
static unsigned class_of(size_t n)
{
	unsigned k = 0;
	while (k < TK_MAPS_POOL_CLASSES && ((size_t)8 << k) < n)
		k++;
	return k;
}

static bool new_chunk(tk_maps_pool *p)
{
	if (p->n_chunks == p->cap_chunks) {
		size_t ncap = p->cap_chunks ? p->cap_chunks * 2 : 8;
		void **nc = realloc(p->chunks, ncap * sizeof *nc);
		if (!nc)
			return false;
		p->chunks = nc;
		p->cap_chunks = ncap;
	}
	/* the first chunk on small pages: a short recording needs only a
	 * few arrays and would pay for zeroing a whole huge page */
	size_t size = p->n_chunks ? CHUNK : FIRST_CHUNK;
	char *c = p->n_chunks ? tk_huge_alloc(&size) : malloc(size);
	if (!c)
		return false;
	p->chunks[p->n_chunks++] = c;
	p->chunk = c;
	p->used = 0;
	p->size = size;
	return true;
}

void *tk_maps_pool_get(tk_maps_pool *p, size_t *cap, size_t elem)
{
	unsigned k = class_of(*cap);
	if (!p || k == TK_MAPS_POOL_CLASSES)
		return malloc((*cap ? *cap : 1) * elem);
	if (elem > TK_MAPS_POOL_MAX_ELEM)
		return NULL; /* its largest class would not fit a chunk */
	*cap = (size_t)8 << k;
	void *v = p->free_list[k];
	if (v) {
		/* a free block's first bytes hold the next free one */
		memcpy(&p->free_list[k], v, sizeof(void *));
		return v;
	}
	/* blocks stay 8-byte aligned: elem is (sizeof of a struct of
	 * 8-byte fields) */
	size_t bytes = (*cap * elem + 7) & ~(size_t)7;
	if (p->size - p->used < bytes && !new_chunk(p))
		return NULL;
	v = p->chunk + p->used;
	p->used += bytes;
	return v;
}

void tk_maps_pool_put(tk_maps_pool *p, void *v, size_t cap)
{
	if (!v)
		return;
	unsigned k = class_of(cap);
	if (!p || k == TK_MAPS_POOL_CLASSES || ((size_t)8 << k) != cap) {
		free(v);
		return;
	}
	memcpy(v, &p->free_list[k], sizeof(void *));
	p->free_list[k] = v;
}

void tk_maps_pool_free(tk_maps_pool *p)
{
	if (!p)
		return;
	if (p->n_chunks)
		free(p->chunks[0]);
	for (size_t i = 1; i < p->n_chunks; i++)
		tk_huge_free(p->chunks[i], CHUNK);
	free(p->chunks);
	memset(p, 0, sizeof *p);
}

_Static_assert(((size_t)8 << (TK_MAPS_POOL_CLASSES - 1)) * TK_MAPS_POOL_MAX_ELEM <= FIRST_CHUNK,
	       "the largest block fits the first chunk");
