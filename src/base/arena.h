/* Bump allocator for per-event scratch values and per-source classes.
 * tk_arena_reset() keeps the first chunk, so a steady stream of events of
 * similar size allocates nothing after warm-up. Not thread-safe. */
#ifndef TK_BASE_ARENA_H
#define TK_BASE_ARENA_H

#include <stddef.h>

typedef struct tk_arena_chunk tk_arena_chunk;

typedef struct tk_arena {
	tk_arena_chunk *head; /* current chunk */
	size_t chunk_size;    /* default chunk payload size */
	size_t total;         /* bytes held in all chunks */
	size_t limit;         /* 0 = none; allocations past it fail */
} tk_arena;

void tk_arena_init(tk_arena *a, size_t chunk_size);
/* Returns 16-byte-aligned memory, or NULL when out of memory or over limit. */
void *tk_arena_alloc(tk_arena *a, size_t size);
void *tk_arena_calloc(tk_arena *a, size_t n, size_t size);
/* Copies n bytes and appends a NUL (packed: no alignment). */
char *tk_arena_strndup(tk_arena *a, const char *s, size_t n);
char *tk_arena_strdup(tk_arena *a, const char *s);
void tk_arena_reset(tk_arena *a);
void tk_arena_free(tk_arena *a);

#endif
