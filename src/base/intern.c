/* Byte-string interning (see intern.h): FNV-1a hash, collisions resolved
 * by probing further hash values in the shared uint64 map. */
#include <stdlib.h>
#include <string.h>

#include "base/intern.h"

void tk_intern_init(tk_intern *t, size_t limit)
{
	memset(t, 0, sizeof *t);
	tk_arena_init(&t->arena, 256 * 1024);
	tk_hashmap_init(&t->by_hash);
	t->limit = limit;
}

void tk_intern_free(tk_intern *t)
{
	free(t->v);
	tk_hashmap_free(&t->by_hash);
	tk_arena_free(&t->arena);
	memset(t, 0, sizeof *t);
}

static uint64_t hash_bytes(const uint8_t *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++) {
		h ^= s[i];
		h *= 1099511628211ull;
	}
	return h;
}

bool tk_intern_over_limit(const tk_intern *t)
{
	return t->limit && t->arena.total > t->limit;
}

bool tk_intern_get(tk_intern *t, const void *key, size_t len, size_t *index, bool *added)
{
	uint64_t h = hash_bytes(key, len);
	if (added)
		*added = false;
	for (uint64_t probe = 0;; probe++) {
		uint64_t k = h + probe * 0x9e3779b97f4a7c15ull;
		uint64_t *idx = tk_hashmap_get(&t->by_hash, k);
		if (idx) {
			const tk_intern_entry *e = &t->v[*idx - 1];
			if (e->len == len && memcmp(e->key, key, len) == 0) {
				*index = (size_t)(*idx - 1);
				return true;
			}
			continue;
		}
		if (tk_intern_over_limit(t))
			return false;
		if (t->n == t->cap) {
			size_t ncap = t->cap ? t->cap * 2 : 256;
			tk_intern_entry *nv = realloc(t->v, ncap * sizeof *nv);
			if (!nv)
				return false;
			t->v = nv;
			t->cap = ncap;
		}
		void *copy = tk_arena_alloc(&t->arena, len ? len : 1);
		if (!copy || !tk_hashmap_put(&t->by_hash, k, t->n + 1))
			return false;
		if (len)
			memcpy(copy, key, len);
		t->v[t->n] = (tk_intern_entry){copy, len};
		*index = t->n++;
		if (added)
			*added = true;
		return true;
	}
}
