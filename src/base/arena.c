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

/* A new chunk for size bytes (the current one has no room): NULL past
 * the limit or out of memory. */
static __attribute__((noinline)) void *grow(tk_arena *a, size_t size)
{
	size_t csize = size > a->chunk_size ? size : a->chunk_size;
	if (csize > SIZE_MAX - sizeof(tk_arena_chunk) || (a->limit && a->total + csize > a->limit))
		return NULL;
	tk_arena_chunk *c = malloc(sizeof *c + csize);
	if (!c)
		return NULL;
	c->next = a->head;
	c->size = csize;
	c->used = size;
	a->head = c;
	a->total += csize;
	return c->data;
}

/* size bytes at a multiple of align (a power of two, at most 16) from
 * the chunk's start. Inlined into each caller, so the alignment is a
 * constant there (tk_arena_alloc is on per-event paths: perf -> CTF
 * calls it for every sample). */
static inline __attribute__((always_inline)) void *bump(tk_arena *a, size_t size, size_t align)
{
	tk_arena_chunk *c = a->head;
	if (!c)
		return grow(a, size);
	size_t at = (c->used + align - 1) & ~(align - 1);
	if (at > c->size || c->size - at < size)
		return grow(a, size);
	c->used = at + size;
	return c->data + at;
}

void *tk_arena_alloc(tk_arena *a, size_t size)
{
	return bump(a, size, 16);
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
	/* packed: strings need no alignment (kernel symbol names, 3 MB of
	 * them, took a quarter more at 16) */
	char *p = n < SIZE_MAX ? bump(a, n + 1, 1) : NULL;
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
