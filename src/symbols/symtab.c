/* Symbol tables: building (sort, duplicate and end fix-ups as perf does
 * them, so symbol names and offsets agree with perf's) and lookup. */
#include <stdlib.h>
#include <string.h>

#include "symbols/symtab_internal.h"

tk_symtab *tk_symtab_new(const char *name)
{
	tk_symtab *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	tk_arena_init(&t->names, 64 * 1024);
	t->name = strdup(name ? name : "");
	if (!t->name) {
		free(t);
		return NULL;
	}
	return t;
}

void tk_symtab_free(tk_symtab *t)
{
	if (!t)
		return;
	free(t->syms);
	free(t->bind);
	free(t->segs);
	free(t->plt);
	tk_symtree_free(&t->tree);
	free(t->name);
	tk_arena_free(&t->names);
	free(t);
}

bool tk_symtab_add(tk_symtab *t, const char *name, size_t len, uint64_t start, uint64_t size,
		   char type, int bind, const char *module, size_t module_len)
{
	if (t->n == t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 256;
		tk_symbol *s = realloc(t->syms, ncap * sizeof *s);
		if (!s)
			return false;
		t->syms = s;
		uint8_t *b = realloc(t->bind, ncap);
		if (!b)
			return false;
		t->bind = b;
		t->cap = ncap;
	}
	char *copy = tk_arena_strndup(&t->names, name, len);
	if (!copy)
		return false;
	const char *mod = NULL;
	if (module && module_len) {
		/* Consecutive symbols share their module: keep one copy. */
		const char *prev = t->n ? t->syms[t->n - 1].module : NULL;
		if (prev && strlen(prev) == module_len && memcmp(prev, module, module_len) == 0)
			mod = prev;
		else if (!(mod = tk_arena_strndup(&t->names, module, module_len)))
			return false;
	}
	t->syms[t->n] =
	    (tk_symbol){.name = copy, .start = start, .size = size, .module = mod, .type = type};
	t->bind[t->n] = (uint8_t)bind;
	t->n++;
	return true;
}

static size_t underscores(const char *s)
{
	size_t n = 0;
	while (s[n] == '_')
		n++;
	return n;
}

/* perf's choose_best_symbol(): true when a is preferred to b. */
static bool better(const tk_symbol *a, int ba, const tk_symbol *b, int bb)
{
	if ((a->size > 0) != (b->size > 0))
		return a->size > 0;
	if ((ba == TK_BIND_WEAK) != (bb == TK_BIND_WEAK))
		return bb == TK_BIND_WEAK;
	if ((ba == TK_BIND_GLOBAL) != (bb == TK_BIND_GLOBAL))
		return ba == TK_BIND_GLOBAL;
	size_t ua = underscores(a->name), ub = underscores(b->name);
	if (ua != ub)
		return ua < ub;
	size_t na = strlen(a->name), nb = strlen(b->name);
	if (na != nb)
		return na > nb;
	return true; /* first seen wins */
}

typedef struct sort_item {
	tk_symbol sym;
	uint8_t bind;
	size_t order; /* insertion order: keeps the sort deterministic */
} sort_item;

static int cmp_item(const void *pa, const void *pb)
{
	const sort_item *a = pa, *b = pb;
	if (a->sym.start != b->sym.start)
		return a->sym.start < b->sym.start ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

static uint64_t round_up_page(uint64_t x)
{
	return (x + 4095) & ~(uint64_t)4095;
}

/* perf's symbols__fixup_end(): a symbol without a size ends where the next
 * one starts (which may be the same address: duplicates stay empty here,
 * and that decides which duplicate wins below). In kallsyms, the last
 * kernel symbol before a module (or the reverse) ends at the next page;
 * the very last symbol ends a page after its start's page. */
static void fixup_end(sort_item *items, size_t n, bool kallsyms)
{
	for (size_t i = 0; i < n; i++) {
		tk_symbol *s = &items[i].sym;
		if (s->size != 0)
			continue;
		uint64_t end;
		if (i + 1 == n)
			end = round_up_page(s->start) + 4096;
		else if (kallsyms && !s->module != !items[i + 1].sym.module)
			end = round_up_page(s->start + 4096);
		else
			end = items[i + 1].sym.start;
		s->size = end > s->start ? end - s->start : 0;
	}
}

/* The flat, sorted copy of the tree (tk_symtab_at, iteration). */
static bool flatten_tree(tk_symtab *t)
{
	size_t n = t->tree.live;
	if (n > t->cap) {
		tk_symbol *s = realloc(t->syms, n * sizeof *s);
		if (!s)
			return false;
		t->syms = s;
		t->cap = n;
	}
	size_t k = 0;
	for (int32_t x = tk_symtree_first(&t->tree); x != TK_SYMTREE_NIL;
	     x = tk_symtree_next(&t->tree, x)) {
		t->syms[k] = t->tree.nodes[x].sym;
		if (t->syms[k].size == 0)
			t->syms[k].size = 1;
		k++;
	}
	t->n = k;
	return true;
}

/* perf's dso__load_sym() tail: insert in symbol-table order, then
 * symbols__fixup_end(), then symbols__fixup_duplicate(), on the tree. */
static bool finish_tree(tk_symtab *t)
{
	tk_symtree *tr = &t->tree;
	tk_symtree_init(tr);
	for (size_t i = 0; i < t->n; i++)
		if (tk_symtree_insert(tr, &t->syms[i], t->bind[i]) == TK_SYMTREE_NIL)
			return false;
	tk_symtree_node *nodes = tr->nodes;
	int32_t prev = tk_symtree_first(tr);
	if (prev == TK_SYMTREE_NIL)
		return flatten_tree(t);
	for (int32_t cur = tk_symtree_next(tr, prev); cur != TK_SYMTREE_NIL;
	     prev = cur, cur = tk_symtree_next(tr, cur))
		if (nodes[prev].sym.size == 0)
			nodes[prev].sym.size = nodes[cur].sym.start - nodes[prev].sym.start;
	if (nodes[prev].sym.size == 0)
		nodes[prev].sym.size =
		    round_up_page(nodes[prev].sym.start) + 4096 - nodes[prev].sym.start;
	int32_t nd = tk_symtree_first(tr);
	while (nd != TK_SYMTREE_NIL) {
		int32_t curr = nd;
	again:
		nd = tk_symtree_next(tr, curr);
		if (nd == TK_SYMTREE_NIL)
			break;
		if (nodes[curr].sym.start != nodes[nd].sym.start)
			continue;
		if (better(&nodes[curr].sym, nodes[curr].bind, &nodes[nd].sym, nodes[nd].bind)) {
			tk_symtree_erase(tr, nd);
			goto again;
		}
		nd = tk_symtree_next(tr, curr);
		tk_symtree_erase(tr, curr);
	}
	return flatten_tree(t);
}

void tk_symtab_finish(tk_symtab *t, tk_symtab_mode mode)
{
	if (mode == TK_SYMTAB_ELF) {
		t->use_tree = true;
		if (!finish_tree(t)) {
			tk_symtree_free(&t->tree);
			t->n = 0;
		}
		free(t->bind);
		t->bind = NULL;
		return;
	}
	bool kallsyms = mode == TK_SYMTAB_KALLSYMS;
	sort_item *items = t->n ? malloc(t->n * sizeof *items) : NULL;
	if (!items) {
		/* Nothing to do, or no memory: an empty table is still a
		 * valid (useless) table, and lookups stay safe. */
		t->n = 0;
		free(t->bind);
		t->bind = NULL;
		return;
	}
	for (size_t i = 0; i < t->n; i++)
		items[i] = (sort_item){t->syms[i], t->bind[i], i};
	qsort(items, t->n, sizeof *items, cmp_item);
	/* perf runs the end fix-up before removing duplicates. */
	fixup_end(items, t->n, kallsyms);
	/* One symbol per start address: perf's symbols__fixup_duplicate()
	 * folds each run of equal starts with choose_best_symbol(). */
	size_t out = 0;
	for (size_t i = 0; i < t->n; i++) {
		if (out > 0 && items[out - 1].sym.start == items[i].sym.start) {
			if (!better(&items[out - 1].sym, items[out - 1].bind, &items[i].sym,
				    items[i].bind))
				items[out - 1] = items[i];
			continue;
		}
		items[out++] = items[i];
	}
	for (size_t i = 0; i < out; i++) {
		t->syms[i] = items[i].sym;
		/* perf finds an empty symbol at exactly its start */
		if (t->syms[i].size == 0)
			t->syms[i].size = 1;
	}
	t->n = out;
	free(items);
	free(t->bind);
	t->bind = NULL;
}

static const tk_symbol *tk_symtab_lookup_n(const tk_symbol *syms, size_t n, uint64_t addr,
					   uint64_t *offset)
{
	/* Last symbol with start <= addr. */
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	const tk_symbol *s = &syms[lo - 1];
	if (addr - s->start >= s->size)
		return NULL;
	if (offset)
		*offset = addr - s->start;
	return s;
}

const tk_symbol *tk_symtab_lookup(const tk_symtab *t, uint64_t addr, uint64_t *offset)
{
	if (!t || t->n == 0 || t->bind)
		return NULL;
	if (t->use_tree) {
		const tk_symbol *s = tk_symtree_find(&t->tree, addr);
		if (s && offset)
			*offset = addr - s->start;
		return s;
	}
	return tk_symtab_lookup_n(t->syms, t->n, addr, offset);
}

size_t tk_symtab_count(const tk_symtab *t)
{
	return t ? t->n : 0;
}
const tk_symbol *tk_symtab_at(const tk_symtab *t, size_t i)
{
	return t && i < t->n ? &t->syms[i] : NULL;
}
const char *tk_symtab_name(const tk_symtab *t)
{
	return t->name;
}

size_t tk_symtab_build_id(const tk_symtab *t, uint8_t id[TK_BUILD_ID_MAX])
{
	if (t->build_id_len)
		memcpy(id, t->build_id, t->build_id_len);
	return t->build_id_len;
}

bool tk_symtab_text(const tk_symtab *t, uint64_t *vaddr, uint64_t *size, uint64_t *file_offset)
{
	if (!t->has_text)
		return false;
	*vaddr = t->text_vaddr;
	*size = t->text_size;
	*file_offset = t->text_offset;
	return true;
}

size_t tk_symtab_segments(const tk_symtab *t, const tk_elf_segment **segs)
{
	*segs = t->segs;
	return t->n_segs;
}

bool tk_symtab_offset_to_vaddr(const tk_symtab *t, uint64_t file_offset, uint64_t *vaddr)
{
	for (size_t i = 0; i < t->n_segs; i++) {
		const tk_elf_segment *s = &t->segs[i];
		if (file_offset >= s->offset && file_offset - s->offset < s->filesz) {
			*vaddr = s->vaddr + (file_offset - s->offset);
			return true;
		}
	}
	return false;
}

bool tk_symtab_is_relocatable(const tk_symtab *t)
{
	return t->relocatable;
}

void tk_build_id_hex(const uint8_t *id, size_t len, char *buf)
{
	static const char hex[] = "0123456789abcdef";
	for (size_t i = 0; i < len; i++) {
		buf[2 * i] = hex[id[i] >> 4];
		buf[2 * i + 1] = hex[id[i] & 15];
	}
	buf[2 * len] = '\0';
}

bool tk_symtab_merge_plt(tk_symtab *t, const tk_symtab *from)
{
	/* perf synthesizes PLT entries only when the DSO had symbols */
	if (from->n_plt == 0 || t->n == 0 || t->bind || !t->use_tree)
		return true;
	for (size_t i = 0; i < from->n_plt; i++) {
		tk_symbol s = from->plt[i];
		if (t != from && !(s.name = tk_arena_strdup(&t->names, s.name)))
			return false;
		if (tk_symtree_insert(&t->tree, &s, TK_BIND_GLOBAL) == TK_SYMTREE_NIL)
			return false;
	}
	return flatten_tree(t);
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)(c | 0x20);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

size_t tk_build_id_parse(const char *text, uint8_t id[TK_BUILD_ID_MAX])
{
	size_t n = strlen(text);
	if (n != 40 && n != 32)
		return 0;
	for (size_t i = 0; i < n / 2; i++) {
		int hi = hex_digit(text[2 * i]), lo = hex_digit(text[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return 0;
		id[i] = (uint8_t)(hi << 4 | lo);
	}
	return n / 2;
}
