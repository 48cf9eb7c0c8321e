/* Fuzz target: ELF symbol loading through libelf (elf_memory): headers,
 * program headers, notes (build id), sections, .symtab/.dynsym and string
 * tables; then lookups at every symbol edge and the segment mapping. Every
 * lookup is checked against perf's tree itself: the sorted table answers
 * alone where no symbols overlap, and must agree with the tree there. */
#include "symbols/symtab_internal.h"
#include "tracekit/tracekit.h"

/* The table's answer must be the tree's (same start and name). */
static void check(const tk_symtab *t, uint64_t addr)
{
	uint64_t off = 0;
	const tk_symbol *a = tk_symtab_lookup(t, addr, &off);
	const tk_symbol *b = tk_symtab_lookup_tree(t, addr);
	if (!a != !b ||
	    (a && (a->start != b->start || a->name != b->name || off != addr - a->start)))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tk_symtab *t;
	if (tk_symtab_load_elf_memory(data, size, "fuzz", &t, NULL) != TK_OK)
		return 0;
	uint8_t id[TK_BUILD_ID_MAX];
	tk_symtab_build_id(t, id);
	uint64_t a, b, c;
	tk_symtab_text(t, &a, &b, &c);
	tk_symtab_offset_to_vaddr(t, a, &b);
	for (size_t i = 0; i < tk_symtab_count(t) && i < 4096; i++) {
		const tk_symbol *s = tk_symtab_at(t, i);
		uint64_t off;
		/* perf's search finds something at every symbol start (itself or
		 * an overlapping symbol higher in the tree), except for a range
		 * that wraps past 2^64, which perf's u64 end never matches */
		if (s->start + s->size < s->start)
			continue;
		const tk_symbol *hit = tk_symtab_lookup(t, s->start, &off);
		if (!hit || hit->start > s->start || off != s->start - hit->start)
			__builtin_trap();
		check(t, s->start);
		check(t, s->start - 1);
		check(t, s->start + s->size - 1);
		check(t, s->start + s->size);
	}
	tk_symtab_free(t);
	return 0;
}
