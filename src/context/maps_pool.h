/* Memory for the threads model's map arrays (tk_maps.v): capacities of
 * 8 << k entries cut from huge-page chunks (base/hugemem.h), a free list
 * per capacity.
 *
 * Why: a recording of a busy system has thousands of FORKs, each copying
 * the parent's maps, and the arrays then grow at the child's MMAPs. With
 * malloc every fresh 4 KiB page of them is a page fault; on a VM each
 * costs microseconds (two thirds of `print`'s 3 800 faults on a 50 MB
 * `-g -a` recording were these). A 2 MiB chunk is one fault; the first
 * chunk, 256 KiB on small pages, keeps a short run from zeroing one. */
#ifndef TK_CONTEXT_MAPS_POOL_H
#define TK_CONTEXT_MAPS_POOL_H

#include <stddef.h>

/* A pool: zero-initialized is empty and ready. Its arrays are of one
 * element size (sizeof(tk_map) in the threads model); it knows only
 * bytes, so it needs nothing of threads_model.h. */
#define TK_MAPS_POOL_CLASSES 10 /* 8 .. 4096 entries; larger arrays use malloc */
/* The largest element: 4096 of them fill the first, 256 KiB chunk. */
#define TK_MAPS_POOL_MAX_ELEM 64
struct tk_maps_pool {
	char *chunk; /* the chunk blocks are cut from */
	size_t used, size;
	void **chunks; /* every chunk, to free them */
	size_t n_chunks, cap_chunks;
	void *free_list[TK_MAPS_POOL_CLASSES]; /* linked through their first bytes */
};
typedef struct tk_maps_pool tk_maps_pool;

/* An array of at least *cap elements of elem bytes (*cap set to its
 * capacity); NULL when out of memory. pool NULL: malloc. */
void *tk_maps_pool_get(tk_maps_pool *pool, size_t *cap, size_t elem);
/* Gives back an array tk_maps_pool_get gave with capacity cap. */
void tk_maps_pool_put(tk_maps_pool *pool, void *v, size_t cap);
/* Frees the pool's chunks (every array it gave is gone). */
void tk_maps_pool_free(tk_maps_pool *pool);

#endif
