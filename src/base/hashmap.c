/* u64 -> u64 open-addressing hash map; see hashmap.h. */
#include <stdlib.h>

#include "base/hashmap.h"

static size_t slot_of(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

void tk_hashmap_init(tk_hashmap *m)
{
	m->keys = NULL;
	m->vals = NULL;
	m->used = NULL;
	m->cap = 0;
	m->n = 0;
}

void tk_hashmap_free(tk_hashmap *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	tk_hashmap_init(m);
}

static bool grow(tk_hashmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 16;
	tk_hashmap bigger = {
	    .keys = malloc(cap * sizeof(uint64_t)),
	    .vals = malloc(cap * sizeof(uint64_t)),
	    .used = calloc(cap, 1),
	    .cap = cap,
	};
	if (!bigger.keys || !bigger.vals || !bigger.used) {
		tk_hashmap_free(&bigger);
		return false;
	}
	for (size_t i = 0; i < m->cap; i++)
		if (m->used[i])
			tk_hashmap_put(&bigger, m->keys[i], m->vals[i]);
	tk_hashmap_free(m);
	*m = bigger;
	return true;
}

bool tk_hashmap_put(tk_hashmap *m, uint64_t key, uint64_t val)
{
	if ((m->n + 1) * 4 > m->cap * 3 && !grow(m))
		return false;
	size_t i = slot_of(key, m->cap);
	while (m->used[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	if (!m->used[i]) {
		m->used[i] = 1;
		m->keys[i] = key;
		m->n++;
	}
	m->vals[i] = val;
	return true;
}

uint64_t *tk_hashmap_get(const tk_hashmap *m, uint64_t key)
{
	if (!m->cap)
		return NULL;
	size_t i = slot_of(key, m->cap);
	while (m->used[i]) {
		if (m->keys[i] == key)
			return &m->vals[i];
		i = (i + 1) & (m->cap - 1);
	}
	return NULL;
}
