/* Red-black tree with perf's (Linux lib/rbtree.c) shapes; see symtree.h.
 * Nodes live in one growing pool and are addressed by index, so the pool
 * can be reallocated; NIL children count as black. */
#include <stdlib.h>

#include "symbols/symtree.h"

#define NIL  TK_SYMTREE_NIL
#define N(i) (t->nodes[i])

void tk_symtree_init(tk_symtree *t)
{
	t->nodes = NULL;
	t->n = t->cap = t->live = 0;
	t->root = NIL;
}

void tk_symtree_free(tk_symtree *t)
{
	free(t->nodes);
	tk_symtree_init(t);
}

static bool is_red(const tk_symtree *t, int32_t x)
{
	return x != NIL && N(x).red;
}

/* Makes `to` take `from`'s place under from's parent (or as root). */
static void replace_child(tk_symtree *t, int32_t parent, int32_t from, int32_t to)
{
	if (parent == NIL)
		t->root = to;
	else if (N(parent).left == from)
		N(parent).left = to;
	else
		N(parent).right = to;
	if (to != NIL)
		N(to).parent = parent;
}

static void rotate_left(tk_symtree *t, int32_t x)
{
	int32_t y = N(x).right;
	N(x).right = N(y).left;
	if (N(y).left != NIL)
		N(N(y).left).parent = x;
	replace_child(t, N(x).parent, x, y);
	N(y).left = x;
	N(x).parent = y;
}

static void rotate_right(tk_symtree *t, int32_t x)
{
	int32_t y = N(x).left;
	N(x).left = N(y).right;
	if (N(y).right != NIL)
		N(N(y).right).parent = x;
	replace_child(t, N(x).parent, x, y);
	N(y).right = x;
	N(x).parent = y;
}

int32_t tk_symtree_insert(tk_symtree *t, const tk_symbol *s, uint8_t bind)
{
	if (t->n == t->cap) {
		if (t->cap >= (size_t)INT32_MAX / 2)
			return NIL;
		size_t ncap = t->cap ? t->cap * 2 : 256;
		tk_symtree_node *nn = realloc(t->nodes, ncap * sizeof *nn);
		if (!nn)
			return NIL;
		t->nodes = nn;
		t->cap = ncap;
	}
	int32_t z = (int32_t)t->n++;
	N(z) = (tk_symtree_node){
	    .sym = *s, .left = NIL, .right = NIL, .parent = NIL, .red = true, .bind = bind};
	/* perf's __symbols__insert(): smaller starts left, equal ones right */
	int32_t parent = NIL, *link = &t->root;
	while (*link != NIL) {
		parent = *link;
		link = s->start < N(parent).sym.start ? &N(parent).left : &N(parent).right;
	}
	*link = z;
	N(z).parent = parent;
	t->live++;
	/* __rb_insert(): the CLRS fix-up */
	int32_t x = z;
	while (is_red(t, N(x).parent)) {
		int32_t p = N(x).parent, g = N(p).parent;
		if (p == N(g).left) {
			int32_t u = N(g).right;
			if (is_red(t, u)) {
				N(p).red = N(u).red = false;
				N(g).red = true;
				x = g;
				continue;
			}
			if (x == N(p).right) {
				rotate_left(t, p);
				x = p;
				p = N(x).parent;
			}
			N(p).red = false;
			N(g).red = true;
			rotate_right(t, g);
		} else {
			int32_t u = N(g).left;
			if (is_red(t, u)) {
				N(p).red = N(u).red = false;
				N(g).red = true;
				x = g;
				continue;
			}
			if (x == N(p).left) {
				rotate_right(t, p);
				x = p;
				p = N(x).parent;
			}
			N(p).red = false;
			N(g).red = true;
			rotate_left(t, g);
		}
	}
	N(t->root).red = false;
	return z;
}

/* ____rb_erase_color(): restore the black height below parent, whose
 * child x (possibly NIL) lost one black node. */
static void erase_fixup(tk_symtree *t, int32_t x, int32_t parent)
{
	while (x != t->root && !is_red(t, x)) {
		/* as Linux tells the sides apart: x is the left child unless it
		 * is the right one (x may be NIL) */
		if (N(parent).right != x) {
			int32_t w = N(parent).right;
			if (is_red(t, w)) {
				N(w).red = false;
				N(parent).red = true;
				rotate_left(t, parent);
				w = N(parent).right;
			}
			if (!is_red(t, N(w).left) && !is_red(t, N(w).right)) {
				N(w).red = true;
				x = parent;
				parent = N(x).parent;
				continue;
			}
			if (!is_red(t, N(w).right)) {
				N(N(w).left).red = false;
				N(w).red = true;
				rotate_right(t, w);
				w = N(parent).right;
			}
			N(w).red = N(parent).red;
			N(parent).red = false;
			N(N(w).right).red = false;
			rotate_left(t, parent);
			x = t->root;
		} else {
			int32_t w = N(parent).left;
			if (is_red(t, w)) {
				N(w).red = false;
				N(parent).red = true;
				rotate_right(t, parent);
				w = N(parent).left;
			}
			if (!is_red(t, N(w).right) && !is_red(t, N(w).left)) {
				N(w).red = true;
				x = parent;
				parent = N(x).parent;
				continue;
			}
			if (!is_red(t, N(w).left)) {
				N(N(w).right).red = false;
				N(w).red = true;
				rotate_left(t, w);
				w = N(parent).left;
			}
			N(w).red = N(parent).red;
			N(parent).red = false;
			N(N(w).left).red = false;
			rotate_right(t, parent);
			x = t->root;
		}
	}
	if (x != NIL)
		N(x).red = false;
}

/* __rb_erase_augmented(): a node with two children is replaced by its
 * in-order successor, which takes its color. */
void tk_symtree_erase(tk_symtree *t, int32_t z)
{
	int32_t x, x_parent;
	bool removed_red;
	if (N(z).left == NIL || N(z).right == NIL) {
		x = N(z).left != NIL ? N(z).left : N(z).right;
		x_parent = N(z).parent;
		removed_red = N(z).red;
		replace_child(t, x_parent, z, x);
	} else {
		int32_t y = N(z).right;
		while (N(y).left != NIL)
			y = N(y).left;
		removed_red = N(y).red;
		x = N(y).right;
		if (N(y).parent == z) {
			x_parent = y;
		} else {
			x_parent = N(y).parent;
			replace_child(t, x_parent, y, x);
			N(y).right = N(z).right;
			N(N(y).right).parent = y;
		}
		replace_child(t, N(z).parent, z, y);
		N(y).left = N(z).left;
		N(N(y).left).parent = y;
		N(y).red = N(z).red;
	}
	N(z).left = N(z).right = N(z).parent = NIL;
	t->live--;
	if (!removed_red)
		erase_fixup(t, x, x_parent);
}

int32_t tk_symtree_first(const tk_symtree *t)
{
	int32_t x = t->root;
	if (x == NIL)
		return NIL;
	while (N(x).left != NIL)
		x = N(x).left;
	return x;
}

int32_t tk_symtree_next(const tk_symtree *t, int32_t x)
{
	if (N(x).right != NIL) {
		x = N(x).right;
		while (N(x).left != NIL)
			x = N(x).left;
		return x;
	}
	int32_t p = N(x).parent;
	while (p != NIL && x == N(p).right) {
		x = p;
		p = N(p).parent;
	}
	return p;
}

const tk_symbol *tk_symtree_find(const tk_symtree *t, uint64_t ip)
{
	int32_t x = t->root;
	while (x != NIL) {
		const tk_symbol *s = &N(x).sym;
		uint64_t end = s->start + s->size;
		if (ip < s->start)
			x = N(x).left;
		else if (ip > end || (ip == end && ip != s->start))
			x = N(x).right;
		else
			return s;
	}
	return NULL;
}
