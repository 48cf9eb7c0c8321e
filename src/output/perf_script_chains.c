/* Whole callchain blocks, cached per (spaces, raw chain); see
 * perf_script_chains.h. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "output/perf_script_chains.h"

/* A stored entry: this header, the nr raw entries, the block, padding to
 * 8 bytes. */
typedef struct entry_head {
	uint32_t user, kernel, nr, len;
} entry_head;

/* Past 70% of the slots, or a full text store, the cache starts over. */
#define MAX_USED (TK_CHAIN_CACHE_SLOTS / 10 * 7)

void tk_chain_cache_init(tk_chain_cache *cc)
{
	memset(cc, 0, sizeof *cc);
}

void tk_chain_cache_free(tk_chain_cache *cc)
{
	free(cc->slots);
	if (cc->text)
		munmap(cc->text, cc->text_cap);
	memset(cc, 0, sizeof *cc);
}

void tk_chain_cache_clear(tk_chain_cache *cc)
{
	if (cc->slots)
		memset(cc->slots, 0, TK_CHAIN_CACHE_SLOTS * sizeof *cc->slots);
	cc->n = 0;
	cc->text_len = 0;
}

void tk_chain_key_hash(tk_chain_key *k)
{
	uint64_t h = ((uint64_t)k->user << 32 | k->kernel) * 0x9e3779b97f4a7c15ull ^ k->nr;
	const unsigned char *p = k->entries;
	for (uint32_t i = 0; i < k->nr; i++) {
		uint64_t e;
		memcpy(&e, p + 8 * (size_t)i, 8);
		h = (h ^ e) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	k->hash = h | 1; /* 0 marks an empty slot */
}

/* The table and the text store, made on first use: the text store is
 * address space only until written (an anonymous mapping), so its bound
 * costs nothing up front. false: out of memory (the cache stays off). */
static bool make(tk_chain_cache *cc)
{
	if (cc->broken)
		return false;
	cc->slots = calloc(TK_CHAIN_CACHE_SLOTS, sizeof *cc->slots);
	void *t = mmap(NULL, TK_CHAIN_CACHE_MAX_TEXT, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!cc->slots || t == MAP_FAILED) {
		free(cc->slots);
		cc->slots = NULL;
		cc->broken = true;
		return false;
	}
	cc->text = t;
	cc->text_cap = TK_CHAIN_CACHE_MAX_TEXT;
	return true;
}

static bool same_key(const entry_head *e, const tk_chain_key *k)
{
	return e->user == k->user && e->kernel == k->kernel && e->nr == k->nr &&
	       memcmp(e + 1, k->entries, 8 * (size_t)k->nr) == 0;
}

const char *tk_chain_cache_find(tk_chain_cache *cc, const tk_chain_key *k, size_t *len,
				bool *store)
{
	*store = false;
	if (k->nr > TK_CHAIN_CACHE_MAX_NR || (!cc->slots && !make(cc)))
		return NULL;
	if (cc->n >= MAX_USED)
		tk_chain_cache_clear(cc);
	const size_t mask = TK_CHAIN_CACHE_SLOTS - 1;
	for (size_t j = (size_t)k->hash & mask;; j = (j + 1) & mask) {
		tk_chain_slot *sl = &cc->slots[j];
		if (!sl->hash) {
			/* first sighting: remembered, not stored */
			sl->hash = k->hash;
			cc->n++;
			return NULL;
		}
		if (sl->hash != k->hash)
			continue;
		if (!sl->off) {
			/* seen once: this one is stored */
			cc->pending = j;
			*store = true;
			return NULL;
		}
		const entry_head *e = (const entry_head *)(cc->text + sl->off - 1);
		if (same_key(e, k)) {
			*len = e->len;
			return (const char *)(e + 1) + 8 * (size_t)e->nr;
		}
		/* another chain with the same hash: probe on */
	}
}

void tk_chain_cache_put(tk_chain_cache *cc, const tk_chain_key *k, const char *block, size_t len)
{
	size_t keys = 8 * (size_t)k->nr;
	size_t need = (sizeof(entry_head) + keys + len + 7) & ~(size_t)7;
	if (len > TK_CHAIN_CACHE_MAX_BLOCK)
		return;
	if (cc->text_cap - cc->text_len < need) {
		tk_chain_cache_clear(cc); /* bounded: start over */
		return;
	}
	tk_chain_slot *sl = &cc->slots[cc->pending];
	if (sl->hash != k->hash || sl->off)
		return; /* not the slot find chose (cannot happen: no find between) */
	entry_head *e = (entry_head *)(cc->text + cc->text_len);
	*e = (entry_head){.user = k->user, .kernel = k->kernel, .nr = k->nr, .len = (uint32_t)len};
	memcpy(e + 1, k->entries, keys);
	memcpy((char *)(e + 1) + keys, block, len);
	sl->off = cc->text_len + 1;
	cc->text_len += need;
}
