/* Whole callchain blocks of perf script (every frame line of a sample),
 * cached per (user space, kernel space, raw callchain), in front of the
 * per-line cache (perf_script_lines.h).
 *
 * Why: in a `perf record -g -a` profile most samples repeat a chain seen
 * before (the idle loop, the same syscall paths): 86% of the callchain
 * bytes of the 8 MB bench recording. The per-line cache still costs a
 * hash, a probe and a copy per frame (about 60 instructions, 10 frames a
 * sample); a repeated chain is one hash over its entries, one compare
 * and one block copy.
 *
 * A block depends only on the raw callchain entries (context markers
 * included) and on the two address spaces its frames are looked up in,
 * as the line cache's space ids name them (those ids change with each
 * map generation). The ids must belong to the line cache's current id
 * epoch: the caller empties this cache when that epoch moves.
 *
 * Only chains seen twice are stored: a first sighting leaves its hash in
 * a slot (most distinct chains never come back, and storing them would
 * only cost copies and fresh pages). A hash collision there only decides
 * whether a block is stored; a stored block is found by comparing its
 * whole key, never by the hash alone.
 *
 * Memory: a slot table (8 bytes a slot, 512 KiB) and a text store,
 * bounded (TK_CHAIN_CACHE_*), in huge pages (a hit reads a slot and an
 * entry at random: with 4 KiB pages each is a TLB miss); at the bound the
 * cache is emptied and starts over. Not thread-safe. */
#ifndef TK_OUTPUT_PERF_SCRIPT_CHAINS_H
#define TK_OUTPUT_PERF_SCRIPT_CHAINS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TK_CHAIN_CACHE_MAX_TEXT ((size_t)8 << 20)
#define TK_CHAIN_CACHE_SLOTS    ((size_t)1 << 16)
/* A direct-mapped copy of the slots of the chains found last (8 KiB): the
 * few chains most samples repeat are found there, from the CPU's L1, where
 * the 512 KiB table costs a cache miss a lookup. */
#define TK_CHAIN_CACHE_HOT ((size_t)1 << 10)
/* Longer chains and blocks are not cached (rare; keeps entries small). */
#define TK_CHAIN_CACHE_MAX_NR    128
#define TK_CHAIN_CACHE_MAX_BLOCK ((size_t)32 << 10)

typedef struct tk_chain_slot {
	uint32_t tag; /* high half of the hash | 1; 0 = empty */
	uint32_t off; /* entry in the text store + 1; 0 = seen once, not stored */
} tk_chain_slot;

/* What a block is looked up by. */
typedef struct tk_chain_key {
	uint32_t user, kernel; /* the line cache's space ids */
	uint32_t nr;
	const void *entries; /* nr raw u64 entries, as in the file */
	uint64_t hash;
} tk_chain_key;

typedef struct tk_chain_cache {
	/* one mapping (huge pages, base/hugemem.h): the hot table, the
	 * slots, then the text store; NULL before first use */
	void *mem;
	size_t mem_size;
	tk_chain_slot *hot;   /* TK_CHAIN_CACHE_HOT, tag 0 = empty */
	tk_chain_slot *slots; /* TK_CHAIN_CACHE_SLOTS */
	size_t n;             /* slots in use */
	size_t pending;       /* the slot find chose for the block put stores */
	char *text;           /* TK_CHAIN_CACHE_MAX_TEXT bytes */
	size_t text_len;
	bool broken; /* out of memory once: stays off */
} tk_chain_cache;

void tk_chain_cache_init(tk_chain_cache *cc);
void tk_chain_cache_free(tk_chain_cache *cc);
/* Empties it (the space ids it was keyed with are being reused). */
void tk_chain_cache_clear(tk_chain_cache *cc);

/* Fills k->hash. */
void tk_chain_key_hash(tk_chain_key *k);

/* The stored block for k (*len bytes), or NULL; *store tells whether a
 * block rendered now should be stored (k was seen before). */
const char *tk_chain_cache_find(tk_chain_cache *cc, const tk_chain_key *k, size_t *len,
				bool *store);

/* Stores block[0..len) under k (after a find that said store). */
void tk_chain_cache_put(tk_chain_cache *cc, const tk_chain_key *k, const char *block, size_t len);

#endif
