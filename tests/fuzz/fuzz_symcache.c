/* Fuzz target: the persistent symbol cache's reader (symcache_file.c).
 * Input: a cache file made for the key "fuzz-key". It is read twice:
 * with the checksum (what tracekit does: damaged files are refused) and
 * without it, so mutations reach the structural checks behind it (counts,
 * section bounds, string offsets, sortedness, the lookup index). Whatever
 * is accepted must then be safe to use: every symbol, lookups around each
 * one, perf's tree where symbols overlap, the ELF facts. */
#include <stdlib.h>
#include <string.h>

#include "symbols/kernel_syms.h"
#include "symbols/symcache_file.h"
#include "symbols/symtab_internal.h"
#include "tracekit/tracekit.h"

static void use(const tk_symtab *t)
{
	size_t n = tk_symtab_count(t);
	for (size_t i = 0; i < n && i < 4096; i++) {
		const tk_symbol *s = tk_symtab_at(t, i);
		uint64_t off;
		if (!s || !s->name || strlen(s->name) > (size_t)1 << 30)
			__builtin_trap();
		if (s->module)
			(void)strlen(s->module);
		tk_symtab_lookup(t, s->start, &off);
		tk_symtab_lookup(t, s->start - 1, &off);
		tk_symtab_lookup(t, s->start + s->size, &off);
		tk_symtab_lookup_tree(t, s->start);
	}
	tk_symtab_lookup(t, 0, NULL);
	tk_symtab_lookup(t, UINT64_MAX, NULL);
	uint8_t id[TK_BUILD_ID_MAX];
	tk_symtab_build_id(t, id);
	uint64_t a = 0, b, c;
	tk_symtab_text(t, &a, &b, &c);
	tk_symtab_offset_to_vaddr(t, a, &b);
	tk_symtab_offset_to_symbol_vaddr(t, a, &b);
	tk_kallsyms_function_start(t, "_text", &a);
	(void)strlen(tk_symtab_name(t));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the reader wants 8-byte alignment and exactly `size` bytes (so
	 * ASan catches any read past the end) */
	void *copy = NULL;
	if (posix_memalign(&copy, 8, size ? size : 8) != 0)
		return 0;
	memcpy(copy, data, size);
	for (int sum = 1; sum >= 0; sum--) {
		tk_symtab *t;
		if (tk_symfile_decode(copy, size, "fuzz-key", 8, sum, &t, NULL) != TK_OK)
			continue;
		use(t);
		tk_symtab_free(t);
	}
	free(copy);
	return 0;
}
