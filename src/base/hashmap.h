/* Open-addressing hash map from u64 keys to u64 values (ids -> attrs,
 * addresses -> counts). Grows by doubling; never shrinks. Not thread-safe. */
#ifndef TK_BASE_HASHMAP_H
#define TK_BASE_HASHMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tk_hashmap {
	uint64_t *keys;
	uint64_t *vals;
	uint8_t *used;
	size_t cap; /* power of two, or 0 */
	size_t n;
} tk_hashmap;

void tk_hashmap_init(tk_hashmap *m);
void tk_hashmap_free(tk_hashmap *m);
/* Inserts or replaces. Returns false when out of memory. */
bool tk_hashmap_put(tk_hashmap *m, uint64_t key, uint64_t val);
/* Returns a pointer to the value (valid until the next put), or NULL. */
uint64_t *tk_hashmap_get(const tk_hashmap *m, uint64_t key);
/* Iteration: for (size_t i = 0; i < m->cap; i++) if (m->used[i]) ... */

#endif
