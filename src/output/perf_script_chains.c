/* Whole callchain blocks, cached per (spaces, raw chain); see
 * perf_script_chains.h. */
#include <stdlib.h>
#include <string.h>

#include "output/perf_script_chains.h"
#include "base/hugemem.h"

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
	tk_huge_free(cc->mem, cc->mem_size);
	memset(cc, 0, sizeof *cc);
}

void tk_chain_cache_clear(tk_chain_cache *cc)
{
	if (cc->slots) {
		memset(cc->slots, 0, TK_CHAIN_CACHE_SLOTS * sizeof *cc->slots);
		memset(cc->hot, 0, TK_CHAIN_CACHE_HOT * sizeof *cc->hot);
	}
	cc->n = 0;
	cc->text_len = 0;
}

void tk_chain_key_hash(tk_chain_key *k)
{
	/* two lanes of multiply-xor, two entries a step (the multiplies of
	 * one lane overlap the other's), folded and mixed at the end */
	uint64_t a = ((uint64_t)k->user << 32 | k->kernel) ^ k->nr, b = 0x2545f4914f6cdd1dull;
	const unsigned char *p = k->entries;
	uint32_t i = 0;
	for (; i + 2 <= k->nr; i += 2) {
		uint64_t e0, e1;
		memcpy(&e0, p + 8 * (size_t)i, 8);
		memcpy(&e1, p + 8 * (size_t)i + 8, 8);
		a = (a ^ e0) * 0x9e3779b97f4a7c15ull;
		b = (b ^ e1) * 0xff51afd7ed558ccdull;
		a ^= a >> 29;
		b ^= b >> 31;
	}
	if (i < k->nr) {
		uint64_t e0;
		memcpy(&e0, p + 8 * (size_t)i, 8);
		a = (a ^ e0) * 0x9e3779b97f4a7c15ull;
	}
	uint64_t h = (a ^ (b >> 17) ^ (b << 47)) * 0xc4ceb9fe1a85ec53ull;
	k->hash = h ^ h >> 32;
}

/* The table and the text store, made on first use: pages are backed only
 * once written, so the store's bound costs nothing up front. false: out
 * of memory (the cache stays off). */
static bool make(tk_chain_cache *cc)
{
	if (cc->broken)
		return false;
	size_t hot = TK_CHAIN_CACHE_HOT * sizeof *cc->hot;
	size_t slots = TK_CHAIN_CACHE_SLOTS * sizeof *cc->slots;
	cc->mem_size = hot + slots + TK_CHAIN_CACHE_MAX_TEXT;
	cc->mem = tk_huge_alloc(&cc->mem_size);
	if (!cc->mem) {
		cc->broken = true;
		return false;
	}
	cc->hot = cc->mem;
	cc->slots = (tk_chain_slot *)((char *)cc->mem + hot);
	cc->text = (char *)cc->mem + hot + slots;
	return true;
}

static bool same_key(const entry_head *e, const tk_chain_key *k)
{
	return e->user == k->user && e->kernel == k->kernel && e->nr == k->nr &&
	       memcmp(e + 1, k->entries, 8 * (size_t)k->nr) == 0;
}

const char *tk_chain_cache_find(tk_chain_cache *cc, const tk_chain_key *k, size_t *len, bool *store)
{
	*store = false;
	if (k->nr > TK_CHAIN_CACHE_MAX_NR || (!cc->slots && !make(cc)))
		return NULL;
	if (cc->n >= MAX_USED)
		tk_chain_cache_clear(cc);
	const size_t mask = TK_CHAIN_CACHE_SLOTS - 1;
	uint32_t tag = (uint32_t)(k->hash >> 32) | 1;
	tk_chain_slot *hot = &cc->hot[(k->hash >> 20) & (TK_CHAIN_CACHE_HOT - 1)];
	if (hot->tag == tag) {
		const entry_head *e = (const entry_head *)(cc->text + hot->off - 1);
		if (same_key(e, k)) {
			*len = e->len;
			return (const char *)(e + 1) + 8 * (size_t)e->nr;
		}
	}
	for (size_t j = (size_t)k->hash & mask;; j = (j + 1) & mask) {
		tk_chain_slot *sl = &cc->slots[j];
		if (!sl->tag) {
			/* first sighting: remembered, not stored */
			sl->tag = tag;
			cc->n++;
			return NULL;
		}
		if (sl->tag != tag)
			continue;
		if (!sl->off) {
			/* seen once: this one is stored */
			cc->pending = j;
			*store = true;
			return NULL;
		}
		const entry_head *e = (const entry_head *)(cc->text + sl->off - 1);
		if (same_key(e, k)) {
			*hot = *sl;
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
	if (TK_CHAIN_CACHE_MAX_TEXT - cc->text_len < need) {
		tk_chain_cache_clear(cc); /* bounded: start over */
		return;
	}
	tk_chain_slot *sl = &cc->slots[cc->pending];
	if (sl->tag != ((uint32_t)(k->hash >> 32) | 1) || sl->off)
		return; /* not the slot find chose (cannot happen: no find between) */
	entry_head *e = (entry_head *)(cc->text + cc->text_len);
	*e = (entry_head){.user = k->user, .kernel = k->kernel, .nr = k->nr, .len = (uint32_t)len};
	memcpy(e + 1, k->entries, keys);
	memcpy((char *)(e + 1) + keys, block, len);
	sl->off = (uint32_t)cc->text_len + 1;
	cc->text_len += need;
}
