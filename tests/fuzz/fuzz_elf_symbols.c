/* Fuzz target: ELF symbol loading through libelf (elf_memory): headers,
 * program headers, notes (build id), sections, .symtab/.dynsym and string
 * tables; then lookups at every symbol edge and the segment mapping. */
#include "tracekit/tracekit.h"

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
		tk_symtab_lookup(t, s->start + s->size - 1, &off);
		tk_symtab_lookup(t, s->start + s->size, &off);
	}
	tk_symtab_free(t);
	return 0;
}
