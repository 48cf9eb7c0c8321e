/* Symbol tables: building (sort, duplicate and end fix-ups as perf does
 * them, so symbol names and offsets agree with perf's) and lookup. */
#include <stdlib.h>
#include <string.h>

#include "symbols/kernel_syms.h"
#include "symbols/symdemangle.h"
#include "symbols/symfile_maps.h"
#include "symbols/symtab_internal.h"

tk_symtab *tk_symtab_new(const char *name)
{
	tk_symtab *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	tk_arena_init(&t->names, 64 * 1024);
	tk_hashmap_init(&t->m_made);
	t->name = strdup(name ? name : "");
	if (!t->name) {
		free(t);
		return NULL;
	}
	return t;
}

tk_symtab *tk_symtab_view(const tk_symtab *t)
{
	/* mapped tables make their entries on use, ELF ones may build the
	 * tree: both write on lookup */
	if (!t || t->mapped || t->is_elf || t->use_tree || t->bind)
		return NULL;
	tk_symtab *v = malloc(sizeof *v);
	if (!v)
		return NULL;
	*v = *t;
	v->view = true;
	v->rest = NULL;
	v->rest_ctx = NULL;
	tk_hashmap_init(&v->m_made);
	return v;
}

void tk_symtab_free(tk_symtab *t)
{
	if (!t)
		return;
	if (t->view) {
		free(t);
		return;
	}
	free(t->syms);
	free(t->bind);
	free(t->text);
	free(t->segs);
	free(t->plt);
	free(t->clean);
	free(t->top);
	free(t->order_syms);
	free(t->order_bind);
	free(t->late);
	tk_symtree_free(&t->tree);
	free(t->name);
	tk_arena_free(&t->names);
	tk_hashmap_free(&t->m_made);
	if (t->map_len)
		tk_symfile_unmap(t->map_base, t->map_len);
	free(t);
}

bool tk_symtab_reserve(tk_symtab *t, size_t n)
{
	if (n <= t->cap - t->n)
		return true;
	if (n > SIZE_MAX / sizeof *t->syms - t->n)
		return false;
	size_t ncap = t->n + n;
	tk_symbol *s = realloc(t->syms, ncap * sizeof *s);
	if (!s)
		return false;
	t->syms = s;
	uint8_t *b = realloc(t->bind, ncap);
	if (!b)
		return false;
	t->bind = b;
	t->cap = ncap;
	return true;
}

bool tk_symtab_add_ref(tk_symtab *t, const char *name, uint64_t start, uint64_t size, char type,
		       int bind, const char *module)
{
	if (t->n == t->cap && !tk_symtab_reserve(t, t->cap ? t->cap : 256))
		return false;
	t->syms[t->n] =
	    (tk_symbol){.name = name, .start = start, .size = size, .module = module, .type = type};
	t->bind[t->n] = (uint8_t)bind;
	t->n++;
	return true;
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

/* Two names that demangle to the same text without demangling either: equal
 * names, or the variants of one C++ constructor or destructor (C1/C2/C3:
 * complete, base, allocating object; D0/D1/D2: deleting, complete, base),
 * which are most aliases of a C++ library (85% of libstdc++'s) and whose
 * demangling cost a cold run a tenth of its main thread. The variant digit
 * follows the C or D and precedes the end of the nested name (E), template
 * arguments (I) or an ABI tag (B). */
static bool same_demangled(const char *a, const char *b)
{
	size_t i = 0;
	while (a[i] && a[i] == b[i])
		i++;
	if (!a[i] && !b[i])
		return true;
	if (i < 3 || a[0] != '_' || a[1] != 'Z' || (a[i - 1] != 'C' && a[i - 1] != 'D'))
		return false;
	if (a[i] < '0' || a[i] > '3' || b[i] < '0' || b[i] > '3')
		return false;
	char next = a[i + 1];
	return (next == 'E' || next == 'I' || next == 'B') && strcmp(a + i + 1, b + i + 1) == 0;
}

/* perf's choose_best_symbol(): true when a is preferred to b. ELF tables
 * compare the names perf stores, C++ ones demangled (symdemangle.h): of
 * two aliases folded into one function, perf keeps the longer demangled
 * name, which is often the shorter mangled one. */
static bool better(const tk_symbol *a, int ba, const tk_symbol *b, int bb, bool demangle)
{
	if ((a->size > 0) != (b->size > 0))
		return a->size > 0;
	if ((ba == TK_BIND_WEAK) != (bb == TK_BIND_WEAK))
		return bb == TK_BIND_WEAK;
	if ((ba == TK_BIND_GLOBAL) != (bb == TK_BIND_GLOBAL))
		return ba == TK_BIND_GLOBAL;
	if (demangle && same_demangled(a->name, b->name))
		return true; /* equal underscores and lengths: first seen wins */
	char *da = demangle ? tk_symbols_demangle(a->name) : NULL;
	char *db = demangle ? tk_symbols_demangle(b->name) : NULL;
	const char *na_s = da ? da : a->name, *nb_s = db ? db : b->name;
	size_t ua = underscores(na_s), ub = underscores(nb_s);
	size_t na = strlen(na_s), nb = strlen(nb_s);
	free(da);
	free(db);
	if (ua != ub)
		return ua < ub;
	if (na != nb)
		return na > nb;
	return true; /* first seen wins */
}

static uint64_t round_up_page(uint64_t x)
{
	return (x + 4095) & ~(uint64_t)4095;
}

/* ---- sorting ---- */

typedef struct sort_key {
	uint64_t start;
	size_t order; /* position in table order: equal starts keep it */
} sort_key;

/* Stable sort of v[0..n) by start. kallsyms comes sorted: one pass
 * checks that. Otherwise (.dynsym is in hash order) an LSD radix sort by
 * bytes, skipping the bytes every start shares (the high bytes of an
 * image's addresses): stable, so equal starts keep table order. Returns
 * false when out of memory. */
static bool sort_keys(sort_key *v, size_t n)
{
	size_t i = 1;
	while (i < n && v[i].start >= v[i - 1].start)
		i++;
	if (i >= n)
		return true;
	sort_key *tmp = malloc(n * sizeof *tmp);
	size_t(*count)[256] = calloc(8, sizeof *count);
	if (!tmp || !count) {
		free(tmp);
		free(count);
		return false;
	}
	for (i = 0; i < n; i++)
		for (unsigned b = 0; b < 8; b++)
			count[b][(v[i].start >> (8 * b)) & 255]++;
	sort_key *src = v, *dst = tmp;
	for (unsigned b = 0; b < 8; b++) {
		size_t *c = count[b];
		if (c[(v[0].start >> (8 * b)) & 255] == n)
			continue; /* every key has this byte */
		size_t sum = 0;
		for (unsigned d = 0; d < 256; d++) {
			size_t k = c[d];
			c[d] = sum;
			sum += k;
		}
		for (i = 0; i < n; i++)
			dst[c[(src[i].start >> (8 * b)) & 255]++] = src[i];
		sort_key *sw = src;
		src = dst;
		dst = sw;
	}
	if (src != v)
		memcpy(v, src, n * sizeof *v);
	free(count);
	free(tmp);
	return true;
}

/* perf's symbols__fixup_end(): a symbol without a size ends where the next
 * one starts (which may be the same address: duplicates stay empty here,
 * and that decides which duplicate wins below). In kallsyms, the last
 * kernel symbol before a module (or the reverse) ends at the next page;
 * the very last symbol ends a page after its start's page (for ELF with
 * perf's u64 arithmetic, wrapping as its tree's does). */
static void fixup_end(tk_symbol *v, size_t n, tk_symtab_mode mode)
{
	for (size_t i = 0; i < n; i++) {
		tk_symbol *s = &v[i];
		if (s->size != 0)
			continue;
		uint64_t end;
		if (i + 1 == n) {
			end = round_up_page(s->start) + 4096;
			if (mode == TK_SYMTAB_ELF) {
				s->size = end - s->start;
				continue;
			}
		} else if (mode == TK_SYMTAB_KALLSYMS && !s->module != !v[i + 1].module) {
			end = round_up_page(s->start + 4096);
		} else {
			end = v[i + 1].start;
		}
		s->size = end > s->start ? end - s->start : 0;
	}
}

/* Marks the symbols that overlap no other one (see symtab_internal.h).
 * Sizes are >= 1 here; a range past 2^64 overlaps everything above it. */
static bool mark_clean(tk_symtab *t)
{
	free(t->clean);
	t->clean = malloc(t->n ? t->n : 1);
	if (!t->clean)
		return false;
	uint64_t reach = 0; /* largest end of the symbols before i */
	bool any = false;
	for (size_t i = 0; i < t->n; i++) {
		const tk_symbol *s = &t->syms[i];
		bool wraps = s->size > UINT64_MAX - s->start;
		uint64_t end = wraps ? UINT64_MAX : s->start + s->size;
		bool clean = !wraps && !(any && reach > s->start) &&
			     (i + 1 == t->n || t->syms[i + 1].start >= end);
		t->clean[i] = clean;
		if (!any || end > reach)
			reach = end;
		any = true;
	}
	return true;
}

/* Sorts, fixes ends, keeps the best symbol per start. ELF tables keep
 * their table-order arrays for the tree. false: out of memory. */
static bool finish_flat(tk_symtab *t, tk_symtab_mode mode)
{
	size_t n = t->n;
	bool in_order = true;
	for (size_t i = 1; i < n && in_order; i++)
		in_order = t->syms[i].start >= t->syms[i - 1].start;
	tk_symbol *sorted;
	uint8_t *bind;
	if (in_order && mode != TK_SYMTAB_ELF) {
		/* kallsyms comes sorted: fixed up in place (ELF tables keep
		 * their table order for the tree, so they are copied) */
		sorted = t->syms;
		bind = t->bind;
	} else {
		sort_key *keys = in_order ? NULL : malloc(n * sizeof *keys);
		sorted = in_order || keys ? malloc(n * sizeof *sorted) : NULL;
		bind = sorted ? malloc(n) : NULL;
		if (bind && keys)
			for (size_t i = 0; i < n; i++)
				keys[i] = (sort_key){t->syms[i].start, i};
		if (!bind || (keys && !sort_keys(keys, n))) {
			free(keys);
			free(sorted);
			free(bind);
			return false;
		}
		for (size_t i = 0; i < n; i++) {
			size_t k = keys ? keys[i].order : i;
			sorted[i] = t->syms[k];
			bind[i] = t->bind[k];
		}
		free(keys);
	}
	/* perf runs the end fix-up before removing duplicates. */
	fixup_end(sorted, n, mode);
	/* One symbol per start address: perf's symbols__fixup_duplicate()
	 * folds each run of equal starts with choose_best_symbol(). */
	size_t out = 0;
	for (size_t i = 0; i < n; i++) {
		if (out > 0 && sorted[out - 1].start == sorted[i].start) {
			if (!better(&sorted[out - 1], bind[out - 1], &sorted[i], bind[i],
				    mode == TK_SYMTAB_ELF)) {
				sorted[out - 1] = sorted[i];
				bind[out - 1] = bind[i];
			}
			continue;
		}
		sorted[out] = sorted[i];
		bind[out] = bind[i];
		out++;
	}
	/* perf finds an empty symbol at exactly its start */
	for (size_t i = 0; i < out; i++)
		if (sorted[i].size == 0)
			sorted[i].size = 1;
	if (mode == TK_SYMTAB_ELF) {
		t->order_syms = t->syms;
		t->order_bind = t->bind;
		t->order_n = n;
		free(bind);
	} else if (sorted != t->syms) {
		free(t->syms);
		free(t->bind);
		free(bind);
	} else {
		free(bind); /* t->bind */
	}
	/* what is kept, and no more: a kernel's table is reserved from its
	 * text's length (169 000 entries for the 122 000 a 5.4 MB copy
	 * keeps) and duplicates fold away; the rest goes back to the heap
	 * for the tables after it */
	size_t cap = sorted == t->syms ? t->cap : n;
	if (out < cap) {
		tk_symbol *fit = realloc(sorted, (out ? out : 1) * sizeof *fit);
		if (fit) {
			sorted = fit;
			cap = out;
		}
	}
	t->bind = NULL;
	t->syms = sorted;
	t->n = out;
	t->cap = cap;
	return true;
}

/* The start of every TK_SYMTAB_BLOCK-th symbol, for tables large enough
 * that a plain binary search would take a cache miss per step (120k
 * kernel symbols: 17 steps over 5 MB). Without memory, no index. */
static void build_index(tk_symtab *t)
{
	free(t->top);
	t->top = NULL;
	t->n_top = 0;
	if (t->n < 4 * TK_SYMTAB_BLOCK)
		return;
	size_t n_top = (t->n + TK_SYMTAB_BLOCK - 1) / TK_SYMTAB_BLOCK;
	t->top = malloc(n_top * sizeof *t->top);
	if (!t->top)
		return;
	for (size_t k = 0; k < n_top; k++)
		t->top[k] = t->syms[k * TK_SYMTAB_BLOCK].start;
	t->n_top = n_top;
}

void tk_symtab_finish(tk_symtab *t, tk_symtab_mode mode)
{
	t->use_tree = mode == TK_SYMTAB_ELF;
	if (t->n == 0 || !finish_flat(t, mode) || (t->use_tree && !mark_clean(t))) {
		/* Nothing to do, or no memory: an empty table is still a
		 * valid (useless) table, and lookups stay safe. */
		t->n = 0;
		free(t->bind);
		t->bind = NULL;
	}
	build_index(t);
}

/* ---- perf's tree, built on demand ---- */

/* perf's dso__load_sym() tail: insert in symbol-table order, then
 * symbols__fixup_end(), then symbols__fixup_duplicate(), on the tree;
 * then the symbols added after the fix-ups (PLT). */
static bool build_tree(tk_symtab *t)
{
	tk_symtree *tr = &t->tree;
	tk_symtree_init(tr);
	for (size_t i = 0; i < t->order_n; i++)
		if (tk_symtree_insert(tr, &t->order_syms[i], t->order_bind[i]) == TK_SYMTREE_NIL)
			return false;
	tk_symtree_node *nodes = tr->nodes;
	int32_t prev = tk_symtree_first(tr);
	if (prev != TK_SYMTREE_NIL) {
		for (int32_t cur = tk_symtree_next(tr, prev); cur != TK_SYMTREE_NIL;
		     prev = cur, cur = tk_symtree_next(tr, cur))
			if (nodes[prev].sym.size == 0)
				nodes[prev].sym.size = nodes[cur].sym.start - nodes[prev].sym.start;
		if (nodes[prev].sym.size == 0)
			nodes[prev].sym.size =
			    round_up_page(nodes[prev].sym.start) + 4096 - nodes[prev].sym.start;
	}
	int32_t nd = tk_symtree_first(tr);
	while (nd != TK_SYMTREE_NIL) {
		int32_t curr = nd;
	again:
		nd = tk_symtree_next(tr, curr);
		if (nd == TK_SYMTREE_NIL)
			break;
		if (nodes[curr].sym.start != nodes[nd].sym.start)
			continue;
		if (better(&nodes[curr].sym, nodes[curr].bind, &nodes[nd].sym, nodes[nd].bind,
			   true)) {
			tk_symtree_erase(tr, nd);
			goto again;
		}
		nd = tk_symtree_next(tr, curr);
		tk_symtree_erase(tr, curr);
	}
	for (size_t i = 0; i < t->n_late; i++)
		if (tk_symtree_insert(tr, &t->late[i], TK_BIND_GLOBAL) == TK_SYMTREE_NIL)
			return false;
	return true;
}

const tk_symbol *tk_symtab_lookup_tree(const tk_symtab *ct, uint64_t addr)
{
	if (!ct || !ct->use_tree || ct->n == 0)
		return NULL;
	/* Built once, on first need: the table is logically unchanged (and,
	 * like the rest of the symbols layer, not thread-safe). */
	tk_symtab *t = (tk_symtab *)ct;
	if (t->tree_state == 0) {
		t->tree_state = (!t->unpack_order || t->unpack_order(t)) && build_tree(t) ? 1 : -1;
		if (t->tree_state < 0)
			tk_symtree_free(&t->tree);
		free(t->order_syms);
		free(t->order_bind);
		t->order_syms = NULL;
		t->order_bind = NULL;
		t->order_n = 0;
	}
	return t->tree_state > 0 ? tk_symtree_find(&t->tree, addr) : NULL;
}

static uint64_t ld64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

/* Symbol i of a table read from the cache, made on first use (the file
 * was checked whole when it was opened: offsets are in the pool). Entries
 * live in the table's arena, found through a map by index: a warm run
 * names a few thousand of 120 k kernel symbols, and a zeroed array for all
 * of them cost a page fault per 100 symbols touched. NULL: out of memory. */
static const tk_symbol *mapped_sym(const tk_symtab *ct, size_t i)
{
	tk_symtab *t = (tk_symtab *)ct; /* logically unchanged (not thread-safe) */
	uint64_t *v = tk_hashmap_get(&t->m_made, i);
	if (v)
		return (const tk_symbol *)(uintptr_t)*v;
	tk_symbol *s = tk_arena_alloc(&t->names, sizeof *s);
	if (!s)
		return NULL;
	uint32_t name, mod;
	memcpy(&name, t->m_name + 4 * i, 4);
	memcpy(&mod, t->m_module + 4 * i, 4);
	*s = (tk_symbol){.name = t->m_str + name,
			 .start = ld64(t->m_start + 8 * i),
			 .size = ld64(t->m_size + 8 * i),
			 .module = mod == UINT32_MAX ? NULL : t->m_str + mod,
			 .type = (char)t->m_type[i]};
	if (!tk_hashmap_put(&t->m_made, i, (uint64_t)(uintptr_t)s))
		return NULL;
	return s;
}

/* Index of the first symbol starting above addr: first the block through
 * the index (small, cached), then within the block. */
static size_t upper_bound(const tk_symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;
	if (t->n_top) {
		size_t a = 0, b = t->n_top;
		while (a < b) {
			size_t mid = a + (b - a) / 2;
			uint64_t top = t->mapped ? ld64(t->m_top + 8 * mid) : t->top[mid];
			if (top <= addr)
				a = mid + 1;
			else
				b = mid;
		}
		lo = a ? (a - 1) * TK_SYMTAB_BLOCK : 0;
		if (a * TK_SYMTAB_BLOCK < hi)
			hi = a * TK_SYMTAB_BLOCK;
	}
	if (t->mapped) {
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (ld64(t->m_start + 8 * mid) <= addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo;
	}
	const tk_symbol *syms = t->syms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const tk_symbol *tk_symtab_lookup_n(const tk_symtab *t, uint64_t addr, uint64_t *offset,
					   size_t *index)
{
	size_t lo = upper_bound(t, addr);
	*index = lo;
	if (lo == 0)
		return NULL;
	if (t->mapped) {
		uint64_t start = ld64(t->m_start + 8 * (lo - 1));
		if (addr - start >= ld64(t->m_size + 8 * (lo - 1)))
			return NULL;
		if (offset)
			*offset = addr - start;
		return mapped_sym(t, lo - 1);
	}
	const tk_symbol *s = &t->syms[lo - 1];
	if (addr - s->start >= s->size)
		return NULL;
	if (offset)
		*offset = addr - s->start;
	return s;
}

const tk_symbol *tk_symtab_lookup(const tk_symtab *t, uint64_t addr, uint64_t *offset)
{
	if (t && t->rest && (addr < t->core_lo || addr >= t->core_hi)) {
		const tk_symtab *whole = t->rest(t->rest_ctx);
		return whole ? tk_symtab_lookup(whole, addr, offset) : NULL;
	}
	if (!t || t->n == 0 || t->bind)
		return NULL;
	size_t after;
	const tk_symbol *s = tk_symtab_lookup_n(t, addr, offset, &after);
	if (!t->use_tree || after == 0 || (t->mapped ? t->m_clean : t->clean)[after - 1])
		return s;
	s = tk_symtab_lookup_tree(t, addr);
	if (s && offset)
		*offset = addr - s->start;
	return s;
}

size_t tk_symtab_count(const tk_symtab *t)
{
	return t ? t->n : 0;
}
const tk_symbol *tk_symtab_at(const tk_symtab *t, size_t i)
{
	if (!t || i >= t->n)
		return NULL;
	return t->mapped ? mapped_sym(t, i) : &t->syms[i];
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

bool tk_symtab_offset_to_symbol_vaddr(const tk_symtab *t, uint64_t file_offset, uint64_t *vaddr)
{
	/* perf 6.1 keys an image's symbols by file offset: st_value - (p_vaddr
	 * - p_offset) of the PT_LOAD holding st_value within max(memsz,
	 * filesz), so .bss symbols sit past the file's bytes. The inverse:
	 * the segment whose offset range (at that length) holds the offset. */
	for (size_t i = 0; i < t->n_segs; i++) {
		const tk_elf_segment *s = &t->segs[i];
		uint64_t len = s->memsz > s->filesz ? s->memsz : s->filesz;
		if (file_offset >= s->offset && file_offset - s->offset < len) {
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
	if (t->mapped)
		return false; /* a finished table from the cache: never merged into */
	size_t m = from->n_plt;
	if (t->n_late + m > t->cap_late) {
		size_t cap = t->n_late + m;
		tk_symbol *nl = realloc(t->late, cap * sizeof *nl);
		if (!nl)
			return false;
		t->late = nl;
		t->cap_late = cap;
	}
	tk_symbol *added = t->late + t->n_late;
	for (size_t i = 0; i < m; i++) {
		added[i] = from->plt[i];
		if (t != from && !(added[i].name = tk_arena_strdup(&t->names, added[i].name)))
			return false;
		if (t->tree_state > 0 &&
		    tk_symtree_insert(&t->tree, &added[i], TK_BIND_GLOBAL) == TK_SYMTREE_NIL)
			return false;
	}
	t->n_late += m;
	/* into the flat copy where the tree's in-order walk has them: after
	 * the symbols with the same start, in insertion order */
	sort_key *keys = malloc(m * sizeof *keys);
	tk_symbol *merged = keys ? malloc((t->n + m) * sizeof *merged) : NULL;
	if (merged)
		for (size_t i = 0; i < m; i++)
			keys[i] = (sort_key){added[i].start, i};
	if (!merged || !sort_keys(keys, m)) {
		free(keys);
		free(merged);
		return false;
	}
	size_t i = 0, j = 0, k = 0;
	while (i < t->n || j < m) {
		if (j < m && (i == t->n || keys[j].start < t->syms[i].start)) {
			merged[k] = added[keys[j++].order];
			if (merged[k].size == 0)
				merged[k].size = 1;
			k++;
		} else {
			merged[k++] = t->syms[i++];
		}
	}
	free(keys);
	free(t->syms);
	t->syms = merged;
	t->n = t->cap = k;
	build_index(t);
	return mark_clean(t);
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
