/* The whole-chain cache of perf script (src/output/perf_script_chains.c):
 * a chain is stored on its second sighting and found from the third; the
 * key is the spaces and every entry, never the hash alone (two chains
 * forced onto one hash each get their own block); the text store's bound
 * empties the cache rather than growing it; clear forgets everything. */
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#include "output/perf_script_chains.h"

static tk_chain_key key(uint32_t user, uint32_t kernel, const uint64_t *e, uint32_t nr)
{
	tk_chain_key k = {.user = user, .kernel = kernel, .nr = nr, .entries = e};
	tk_chain_key_hash(&k);
	return k;
}

/* find, and put block when find asks for it; returns what find found */
static const char *see(tk_chain_cache *cc, const tk_chain_key *k, const char *block, size_t *len)
{
	bool store = false;
	const char *got = tk_chain_cache_find(cc, k, len, &store);
	if (store)
		tk_chain_cache_put(cc, k, block, strlen(block));
	return got;
}

static void test_second_sighting_stored(void **state)
{
	(void)state;
	tk_chain_cache cc;
	tk_chain_cache_init(&cc);
	uint64_t e[] = {0xffffffffffffff80ull, 0xffffffff81000000ull, 0x401000};
	tk_chain_key k = key(5, 2, e, 3);
	size_t len = 0;
	bool store = true;
	assert_null(tk_chain_cache_find(&cc, &k, &len, &store));
	assert_false(store); /* first sighting: only remembered */
	assert_null(see(&cc, &k, "\tA\n\tB\n", &len));
	const char *b = see(&cc, &k, "not this", &len);
	assert_non_null(b);
	assert_int_equal(len, 6);
	assert_memory_equal(b, "\tA\n\tB\n", 6);
	/* the same entries in another user space, kernel space, or shorter */
	tk_chain_key u = key(6, 2, e, 3), kk = key(5, 3, e, 3), s = key(5, 2, e, 2);
	assert_null(see(&cc, &u, "u", &len));
	assert_null(see(&cc, &kk, "k", &len));
	assert_null(see(&cc, &s, "s", &len));
	/* a copy of the entries elsewhere is the same key */
	uint64_t copy[3];
	memcpy(copy, e, sizeof copy);
	tk_chain_key c = key(5, 2, copy, 3);
	assert_non_null(see(&cc, &c, "x", &len));
	tk_chain_cache_clear(&cc);
	assert_null(see(&cc, &k, "y", &len));
	tk_chain_cache_free(&cc);
}

static void test_same_hash_two_chains(void **state)
{
	(void)state;
	tk_chain_cache cc;
	tk_chain_cache_init(&cc);
	uint64_t a[] = {1, 2, 3}, b[] = {1, 2, 4};
	tk_chain_key ka = key(2, 3, a, 3), kb = key(2, 3, b, 3);
	kb.hash = ka.hash; /* forced collision */
	size_t len = 0;
	/* B takes the slot A's first sighting left (a hash says "seen", not
	 * whose), so A is stored on its third sighting, in a slot of its own */
	for (int i = 0; i < 3; i++) {
		see(&cc, &ka, "AAA", &len);
		see(&cc, &kb, "BBBB", &len);
	}
	const char *ga = see(&cc, &ka, "-", &len);
	assert_non_null(ga);
	assert_int_equal(len, 3);
	assert_memory_equal(ga, "AAA", 3);
	const char *gb = see(&cc, &kb, "-", &len);
	assert_non_null(gb);
	assert_int_equal(len, 4);
	assert_memory_equal(gb, "BBBB", 4);
	tk_chain_cache_free(&cc);
}

static void test_bounds(void **state)
{
	(void)state;
	tk_chain_cache cc;
	tk_chain_cache_init(&cc);
	size_t len = 0;
	/* longer than TK_CHAIN_CACHE_MAX_NR entries: never cached */
	uint64_t *many = calloc(TK_CHAIN_CACHE_MAX_NR + 1, sizeof *many);
	assert_non_null(many);
	tk_chain_key big = key(2, 3, many, TK_CHAIN_CACHE_MAX_NR + 1);
	for (int i = 0; i < 3; i++)
		assert_null(see(&cc, &big, "z", &len));
	free(many);
	/* blocks of 16 KiB: the 8 MiB store holds about 500; the first one
	 * is gone once the store has been filled and emptied */
	char *block = malloc(16 << 10);
	assert_non_null(block);
	memset(block, 'x', (16 << 10) - 1);
	block[(16 << 10) - 1] = '\0';
	uint64_t first = 0;
	tk_chain_key k0 = key(2, 3, &first, 1);
	see(&cc, &k0, block, &len);
	see(&cc, &k0, block, &len);
	assert_non_null(see(&cc, &k0, block, &len));
	size_t n = TK_CHAIN_CACHE_MAX_TEXT / (16 << 10) + 8;
	for (uint64_t i = 1; i <= n; i++) {
		tk_chain_key k = key(2, 3, &i, 1);
		see(&cc, &k, block, &len);
		see(&cc, &k, block, &len);
		assert_true(cc.text_len <= TK_CHAIN_CACHE_MAX_TEXT);
	}
	assert_null(see(&cc, &k0, block, &len));
	/* more distinct chains than slots: emptied, never full */
	for (uint64_t i = 0; i < 2 * TK_CHAIN_CACHE_SLOTS; i++) {
		tk_chain_key k = key(7, 3, &i, 1);
		see(&cc, &k, "q", &len);
		assert_true(cc.n < TK_CHAIN_CACHE_SLOTS);
	}
	free(block);
	tk_chain_cache_free(&cc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_second_sighting_stored),
	    cmocka_unit_test(test_same_hash_two_chains),
	    cmocka_unit_test(test_bounds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
