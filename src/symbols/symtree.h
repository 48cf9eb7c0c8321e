/* A replica of the red-black tree perf keeps a DSO's symbols in.
 *
 * Why a replica: when symbol ranges overlap (a size-less symbol stretched
 * over the PLT by the end fix-up, assembler aliases of different sizes),
 * which symbol perf reports for an address depends on the shape of its
 * tree: symbols__find() returns the first node on the search path whose
 * range holds the address. Inserting the same symbols in the same order
 * with the same algorithm (Linux lib/rbtree.c: CLRS insertion and
 * successor-splicing deletion) gives the same shape, hence perf's answer.
 * Equal starts go right, as in perf's __symbols__insert(). */
#ifndef TK_SYMTREE_H
#define TK_SYMTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracekit/tracekit.h"

#define TK_SYMTREE_NIL (-1)

typedef struct tk_symtree_node {
	tk_symbol sym; /* size 0 = matches only its start, as in perf */
	int32_t left, right, parent;
	bool red;
	uint8_t bind;
} tk_symtree_node;

typedef struct tk_symtree {
	tk_symtree_node *nodes; /* erased nodes stay in the pool, unlinked */
	size_t n, cap;
	int32_t root;
	size_t live;
} tk_symtree;

void tk_symtree_init(tk_symtree *t);
void tk_symtree_free(tk_symtree *t);
/* Returns the new node, or TK_SYMTREE_NIL when out of memory (or full). */
int32_t tk_symtree_insert(tk_symtree *t, const tk_symbol *s, uint8_t bind);
void tk_symtree_erase(tk_symtree *t, int32_t node);
int32_t tk_symtree_first(const tk_symtree *t);
int32_t tk_symtree_next(const tk_symtree *t, int32_t node);
/* perf's symbols__find(): the first node on the search path holding ip. */
const tk_symbol *tk_symtree_find(const tk_symtree *t, uint64_t ip);

#endif
