/* Sample histograms: an open-addressing table keyed by (image, key) where
 * key is the symbol start, the address, or nothing, depending on the mode.
 * Images are interned so rows can compare them by pointer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/profile_agg.h"
#include "base/arena.h"

#define NO_SYMBOL UINT64_MAX

struct tk_profile_agg {
	tk_profile_key mode;
	bool unknown_per_address;
	tk_profile_row *rows;
	size_t n, cap;
	size_t *slots;  /* row index + 1, 0 = empty */
	size_t n_slots; /* power of two */
	bool sorted;
	uint64_t total;
	tk_arena strings;
	const char **images; /* interned image names */
	size_t n_images, cap_images;
};

tk_profile_agg *tk_profile_agg_new(tk_profile_key key)
{
	tk_profile_agg *a = calloc(1, sizeof *a);
	if (!a)
		return NULL;
	a->mode = key;
	tk_arena_init(&a->strings, 16 * 1024);
	return a;
}

void tk_profile_agg_free(tk_profile_agg *a)
{
	if (!a)
		return;
	free(a->rows);
	free(a->slots);
	free(a->images);
	tk_arena_free(&a->strings);
	free(a);
}

void tk_profile_agg_unknown_per_address(tk_profile_agg *a)
{
	a->unknown_per_address = true;
}

static const char *intern(tk_profile_agg *a, const char *image)
{
	/* Images are few (one per profile): a linear scan is enough. */
	for (size_t i = 0; i < a->n_images; i++)
		if (strcmp(a->images[i], image) == 0)
			return a->images[i];
	if (a->n_images == a->cap_images) {
		size_t ncap = a->cap_images ? a->cap_images * 2 : 16;
		const char **ni = realloc(a->images, ncap * sizeof *ni);
		if (!ni)
			return NULL;
		a->images = ni;
		a->cap_images = ncap;
	}
	char *s = tk_arena_strdup(&a->strings, image);
	if (s)
		a->images[a->n_images++] = s;
	return s;
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

static uint64_t hash_of(const char *image, uint64_t key)
{
	return mix((uint64_t)(uintptr_t)image * 0x9e3779b97f4a7c15ull ^ mix(key));
}

static uint64_t row_key(const tk_profile_agg *a, const tk_profile_row *row)
{
	switch (a->mode) {
	case TK_PROFILE_BY_IMAGE: return 0;
	case TK_PROFILE_BY_ADDRESS: return row->addr;
	default: return row->symbol ? row->addr : NO_SYMBOL;
	}
}

static bool same_row(const tk_profile_agg *a, const tk_profile_row *row, const char *image,
		     uint64_t key, bool unresolved)
{
	return row->image == image && row_key(a, row) == key && row->unresolved == unresolved;
}

/* (Re)builds the slot table with ns slots from the rows. */
static bool rebuild(tk_profile_agg *a, size_t ns)
{
	size_t *slots = calloc(ns, sizeof *slots);
	if (!slots)
		return false;
	for (size_t r = 0; r < a->n; r++) {
		const tk_profile_row *row = &a->rows[r];
		size_t i = (size_t)hash_of(row->image, row_key(a, row)) & (ns - 1);
		while (slots[i])
			i = (i + 1) & (ns - 1);
		slots[i] = r + 1;
	}
	free(a->slots);
	a->slots = slots;
	a->n_slots = ns;
	return true;
}

bool tk_profile_agg_add(tk_profile_agg *a, const char *image, const char *symbol,
			uint64_t sym_start, uint64_t addr, uint64_t count)
{
	image = intern(a, image ? image : TK_PROFILE_UNKNOWN_SYMBOL);
	if (!image)
		return false;
	uint64_t key;
	switch (a->mode) {
	case TK_PROFILE_BY_IMAGE:
		key = 0;
		symbol = NULL;
		break;
	case TK_PROFILE_BY_ADDRESS: key = addr; break;
	default: key = symbol || a->unknown_per_address ? sym_start : NO_SYMBOL; break;
	}
	bool unresolved = a->mode == TK_PROFILE_BY_SYMBOL && !symbol && a->unknown_per_address;
	/* Sorting moved the rows: the slot indexes are stale. */
	if (a->sorted) {
		if (!rebuild(a, a->n_slots))
			return false;
		a->sorted = false;
	}
	if (a->n * 2 >= a->n_slots && !rebuild(a, a->n_slots ? a->n_slots * 2 : 1024))
		return false;
	size_t i = (size_t)hash_of(image, key) & (a->n_slots - 1);
	while (a->slots[i]) {
		tk_profile_row *row = &a->rows[a->slots[i] - 1];
		if (same_row(a, row, image, key, unresolved)) {
			row->count += count;
			a->total += count;
			return true;
		}
		i = (i + 1) & (a->n_slots - 1);
	}
	if (a->n == a->cap) {
		size_t ncap = a->cap ? a->cap * 2 : 256;
		tk_profile_row *nr = realloc(a->rows, ncap * sizeof *nr);
		if (!nr)
			return false;
		a->rows = nr;
		a->cap = ncap;
	}
	if (unresolved) {
		/* perf report's "%-#.*llx" with 16 digits (so 0 has no "0x") */
		char name[24];
		snprintf(name, sizeof name, "%#.16llx", (unsigned long long)sym_start);
		if (!(symbol = tk_arena_strdup(&a->strings, name)))
			return false;
	}
	a->rows[a->n] = (tk_profile_row){
	    .image = image,
	    .symbol = symbol,
	    .addr = a->mode == TK_PROFILE_BY_ADDRESS ? addr
		    : symbol                         ? sym_start
						     : 0,
	    .count = count,
	    .unresolved = unresolved,
	};
	a->slots[i] = ++a->n;
	a->total += count;
	return true;
}

uint64_t tk_profile_agg_total(const tk_profile_agg *a)
{
	return a->total;
}

static int cmp_row(const void *pa, const void *pb)
{
	const tk_profile_row *x = pa, *y = pb;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	int c = strcmp(x->image, y->image);
	if (c)
		return c;
	if (!x->symbol != !y->symbol)
		return x->symbol ? -1 : 1;
	if (x->symbol && (c = strcmp(x->symbol, y->symbol)))
		return c;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

const tk_profile_row *tk_profile_agg_rows(tk_profile_agg *a, size_t *n)
{
	if (!a->sorted && a->n > 1)
		qsort(a->rows, a->n, sizeof *a->rows, cmp_row);
	a->sorted = true;
	*n = a->n;
	return a->rows;
}
