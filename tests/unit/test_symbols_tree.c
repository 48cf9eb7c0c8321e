/* Unit tests for the replica of perf's symbol tree (src/symbols/symtree.c):
 * red-black invariants after random inserts and erases (including equal
 * starts), in-order = stable order of starts, perf's search semantics for
 * overlapping and empty ranges, and the textbook shape for a known input.
 * Then ELF tables (symtab.c), which answer from a sorted array where no
 * symbols overlap and build the tree only where they do: for random
 * tables, every address must get the tree's answer, and the sorted array
 * must be the tree's in-order content. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/symtab_internal.h"
#include "symbols/symtree.h"
#include "test_support.h"

/* Black height of the subtree, or -1 when an invariant is broken. */
static int check(const tk_symtree *t, int32_t x, int32_t parent, uint64_t lo, uint64_t hi)
{
	if (x == TK_SYMTREE_NIL)
		return 1;
	const tk_symtree_node *n = &t->nodes[x];
	if (n->parent != parent || n->sym.start < lo || n->sym.start > hi)
		return -1;
	if (n->red && ((n->left != TK_SYMTREE_NIL && t->nodes[n->left].red) ||
		       (n->right != TK_SYMTREE_NIL && t->nodes[n->right].red)))
		return -1;
	int l = check(t, n->left, x, lo, n->sym.start);
	int r = check(t, n->right, x, n->sym.start, hi);
	if (l < 0 || r < 0 || l != r)
		return -1;
	return l + !n->red;
}

static void assert_valid(const tk_symtree *t)
{
	if (t->root != TK_SYMTREE_NIL)
		assert_false(t->nodes[t->root].red);
	assert_true(check(t, t->root, TK_SYMTREE_NIL, 0, UINT64_MAX) > 0);
	size_t count = 0;
	uint64_t prev = 0;
	for (int32_t x = tk_symtree_first(t); x != TK_SYMTREE_NIL; x = tk_symtree_next(t, x)) {
		assert_true(t->nodes[x].sym.start >= prev);
		prev = t->nodes[x].sym.start;
		count++;
	}
	assert_int_equal(count, t->live);
}

static void test_random_inserts_and_erases(void **state)
{
	(void)state;
	srand(12345);
	for (int round = 0; round < 20; round++) {
		tk_symtree t;
		tk_symtree_init(&t);
		int32_t ids[600];
		bool alive[600];
		int n = 0;
		for (int i = 0; i < 600; i++) {
			/* small key range: plenty of equal starts */
			tk_symbol s = {.name = "s", .start = (uint64_t)(rand() % 200), .size = 1};
			ids[n] = tk_symtree_insert(&t, &s, 0);
			assert_int_not_equal(ids[n], TK_SYMTREE_NIL);
			alive[n++] = true;
			if (rand() % 3 == 0) {
				int k = rand() % n;
				if (alive[k]) {
					tk_symtree_erase(&t, ids[k]);
					alive[k] = false;
				}
			}
			if (i % 50 == 0)
				assert_valid(&t);
		}
		assert_valid(&t);
		/* erase everything, checking as we go */
		for (int k = 0; k < n; k++)
			if (alive[k]) {
				tk_symtree_erase(&t, ids[k]);
				if (k % 37 == 0)
					assert_valid(&t);
			}
		assert_int_equal(t.live, 0);
		assert_int_equal(t.root, TK_SYMTREE_NIL);
		tk_symtree_free(&t);
	}
}

/* Equal starts go right: in-order keeps insertion order among them. */
static void test_equal_starts_keep_order(void **state)
{
	(void)state;
	tk_symtree t;
	tk_symtree_init(&t);
	const char *names[] = {"a", "b", "c", "d", "e"};
	for (int i = 0; i < 5; i++) {
		tk_symbol s = {.name = names[i], .start = 100, .size = 0};
		tk_symtree_insert(&t, &s, 0);
	}
	int i = 0;
	for (int32_t x = tk_symtree_first(&t); x != TK_SYMTREE_NIL; x = tk_symtree_next(&t, x))
		assert_string_equal(t.nodes[x].sym.name, names[i++]);
	tk_symtree_free(&t);
}

/* Inserting 1..10 in order gives the textbook red-black shape. */
static void test_known_shape(void **state)
{
	(void)state;
	tk_symtree t;
	tk_symtree_init(&t);
	for (uint64_t k = 1; k <= 10; k++) {
		tk_symbol s = {.name = "k", .start = k, .size = 1};
		tk_symtree_insert(&t, &s, 0);
	}
	assert_valid(&t);
	const tk_symtree_node *n = t.nodes;
	/* CLRS / Linux lib/rbtree.c: root 4, left 2 (1, 3), right 6 (5, 8 (7, 9 (-, 10))) */
	assert_int_equal(n[t.root].sym.start, 4);
	assert_int_equal(n[n[t.root].left].sym.start, 2);
	int32_t six = n[t.root].right;
	assert_int_equal(n[six].sym.start, 6);
	int32_t eight = n[six].right;
	assert_int_equal(n[eight].sym.start, 8);
	assert_true(n[eight].red);
	assert_int_equal(n[n[eight].right].sym.start, 9);
	assert_int_equal(n[n[n[eight].right].right].sym.start, 10);
	tk_symtree_free(&t);
}

/* perf's symbols__find(): the first node on the path whose [start, end)
 * holds ip; an empty symbol matches its start only. */
static void test_find_semantics(void **state)
{
	(void)state;
	tk_symtree t;
	tk_symtree_init(&t);
	tk_symbol big = {.name = "big", .start = 0x1000, .size = 0x100};
	tk_symbol inner = {.name = "inner", .start = 0x1040, .size = 0x10};
	tk_symbol empty = {.name = "empty", .start = 0x2000, .size = 0};
	tk_symtree_insert(&t, &big, 0);
	tk_symtree_insert(&t, &inner, 0);
	tk_symtree_insert(&t, &empty, 0);
	/* root is "inner" after the rotation: it wins inside its range */
	assert_string_equal(tk_symtree_find(&t, 0x1044)->name, "inner");
	assert_string_equal(tk_symtree_find(&t, 0x1000)->name, "big");
	/* past inner, the search turns right at the root and never meets
	 * "big" again: perf reports no symbol there, and so do we */
	assert_null(tk_symtree_find(&t, 0x10ff));
	assert_null(tk_symtree_find(&t, 0x1100));
	assert_string_equal(tk_symtree_find(&t, 0x2000)->name, "empty");
	assert_null(tk_symtree_find(&t, 0x2001));
	assert_null(tk_symtree_find(&t, 0xfff));
	tk_symtree_free(&t);
}

/* A random ELF-like table: starts in a small range so that duplicates,
 * size-less symbols, overlaps and nesting are common; some tables get PLT
 * entries added after the fix-ups, as elf_symbols.c does. */
static tk_symtab *random_table(unsigned seed, uint64_t *hi)
{
	srand(seed);
	tk_symtab *t = tk_symtab_new("random");
	assert_non_null(t);
	size_t n = 1 + (size_t)(rand() % 60);
	uint64_t base = 0x1000;
	*hi = base;
	for (size_t i = 0; i < n; i++) {
		char name[32];
		int len = snprintf(name, sizeof name, "%.*sf%zu", rand() % 3, "__", i);
		uint64_t start = base + (uint64_t)(rand() % 400);
		/* half without a size (fixed up), some small, a few large */
		uint64_t size = rand() % 2 ? 0 : rand() % 8 ? (uint64_t)(rand() % 40) : 300;
		int bind = rand() % 3;
		assert_true(tk_symtab_add(t, name, (size_t)len, start, size, 'T', bind, NULL, 0));
		if (start + size > *hi)
			*hi = start + size;
	}
	tk_symtab_finish(t, TK_SYMTAB_ELF);
	if (rand() % 2) {
		size_t n_plt = 1 + (size_t)(rand() % 8);
		t->plt = calloc(n_plt, sizeof *t->plt);
		assert_non_null(t->plt);
		for (size_t i = 0; i < n_plt; i++)
			t->plt[i] = (tk_symbol){.name = "x@plt",
						.start = base + (uint64_t)(rand() % 400),
						.size = 16,
						.type = 'T'};
		t->n_plt = n_plt;
		assert_true(tk_symtab_merge_plt(t, t));
	}
	*hi += 8192; /* past the page the last symbol is stretched to */
	return t;
}

static void test_flat_lookups_equal_tree(void **state)
{
	(void)state;
	for (unsigned seed = 1; seed <= 400; seed++) {
		uint64_t hi;
		tk_symtab *t = random_table(seed, &hi);
		/* the sorted array first (before the tree exists), then the tree */
		size_t span = (size_t)(hi - 0xff0);
		const tk_symbol **flat = calloc(span, sizeof *flat);
		uint64_t *offs = calloc(span, sizeof *offs);
		assert_true(flat && offs);
		for (size_t i = 0; i < span; i++)
			flat[i] = tk_symtab_lookup(t, 0xff0 + i, &offs[i]);
		for (size_t i = 0; i < span; i++) {
			uint64_t addr = 0xff0 + i;
			const tk_symbol *want = tk_symtab_lookup_tree(t, addr);
			if (!want != !flat[i] || (want && (want->start != flat[i]->start ||
							   want->name != flat[i]->name ||
							   offs[i] != addr - want->start)))
				fail_msg("seed %u, address 0x%llx: table and tree disagree", seed,
					 (unsigned long long)addr);
		}
		/* the array is the tree's in-order walk (sizes 0 shown as 1) */
		size_t k = 0;
		for (int32_t x = tk_symtree_first(&t->tree); x != TK_SYMTREE_NIL;
		     x = tk_symtree_next(&t->tree, x), k++) {
			const tk_symbol *a = tk_symtab_at(t, k), *b = &t->tree.nodes[x].sym;
			assert_non_null(a);
			assert_true(a->start == b->start && a->name == b->name);
			assert_true(a->size == (b->size ? b->size : 1));
		}
		assert_int_equal(k, tk_symtab_count(t));
		free(flat);
		free(offs);
		tk_symtab_free(t);
	}
}

/* Large tables go through the lookup index (a start per 64 symbols)
 * before the binary search: every address must still get the tree's
 * answer. */
static void test_indexed_lookups_equal_tree(void **state)
{
	(void)state;
	srand(7);
	tk_symtab *t = tk_symtab_new("large");
	assert_non_null(t);
	for (size_t i = 0; i < 5000; i++) {
		char name[32];
		int len = snprintf(name, sizeof name, "g%zu", i);
		uint64_t start = 0x400000 + (uint64_t)(rand() % 200000);
		uint64_t size = rand() % 3 ? 0 : (uint64_t)(rand() % 300);
		assert_true(
		    tk_symtab_add(t, name, (size_t)len, start, size, 'T', rand() % 3, NULL, 0));
	}
	tk_symtab_finish(t, TK_SYMTAB_ELF);
	assert_non_null(t->top);
	for (uint64_t addr = 0x3ffff0; addr < 0x400000 + 200000 + 8192; addr++) {
		uint64_t off = 0;
		const tk_symbol *a = tk_symtab_lookup(t, addr, &off);
		const tk_symbol *b = tk_symtab_lookup_tree(t, addr);
		if (!a != !b ||
		    (a && (a->start != b->start || a->name != b->name || off != addr - a->start)))
			fail_msg("address 0x%llx: indexed table and tree disagree",
				 (unsigned long long)addr);
	}
	tk_symtab_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_random_inserts_and_erases),
	    cmocka_unit_test(test_equal_starts_keep_order),
	    cmocka_unit_test(test_known_shape),
	    cmocka_unit_test(test_find_semantics),
	    cmocka_unit_test(test_flat_lookups_equal_tree),
	    cmocka_unit_test(test_indexed_lookups_equal_tree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
