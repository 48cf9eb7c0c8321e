/* Bump allocator; see arena.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"

struct tk_arena_chunk {
	tk_arena_chunk *next; /* older chunk */
	size_t size;
	size_t used;
	_Alignas(16) unsigned char data[];
};

void tk_arena_init(tk_arena *a, size_t chunk_size)
{
	a->head = NULL;
	a->chunk_size = chunk_size ? chunk_size : 64 * 1024;
	a->total = 0;
	a->limit = 0;
}

void *tk_arena_alloc(tk_arena *a, size_t size)
{
	size_t need = (size + 15) & ~(size_t)15;
	if (need < size)
		return NULL;
	tk_arena_chunk *c = a->head;
	if (!c || c->size - c->used < need) {
		size_t csize = need > a->chunk_size ? need : a->chunk_size;
		if (a->limit && a->total + csize > a->limit)
			return NULL;
		c = malloc(sizeof *c + csize);
		if (!c)
			return NULL;
		c->next = a->head;
		c->size = csize;
		c->used = 0;
		a->head = c;
		a->total += csize;
	}
	void *p = c->data + c->used;
	c->used += need;
	return p;
}

void *tk_arena_calloc(tk_arena *a, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	void *p = tk_arena_alloc(a, n * size);
	if (p)
		memset(p, 0, n * size);
	return p;
}

char *tk_arena_strndup(tk_arena *a, const char *s, size_t n)
{
	char *p = tk_arena_alloc(a, n + 1);
	if (!p)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *tk_arena_strdup(tk_arena *a, const char *s)
{
	return tk_arena_strndup(a, s, strlen(s));
}

void tk_arena_reset(tk_arena *a)
{
	tk_arena_chunk *c = a->head;
	if (!c)
		return;
	/* Keep the largest (newest) chunk: it fits the biggest event seen. */
	tk_arena_chunk *older = c->next;
	while (older) {
		tk_arena_chunk *n = older->next;
		a->total -= older->size;
		free(older);
		older = n;
	}
	c->next = NULL;
	c->used = 0;
}

void tk_arena_free(tk_arena *a)
{
	tk_arena_chunk *c = a->head;
	while (c) {
		tk_arena_chunk *n = c->next;
		free(c);
		c = n;
	}
	a->head = NULL;
	a->total = 0;
}
