/* Fuzz target: the text symbol loaders, /proc/kallsyms and perf-PID.map,
 * on the same bytes; lookups at every symbol edge. */
#include "tracekit/tracekit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void probe(tk_symtab *t)
{
	for (size_t i = 0; i < tk_symtab_count(t) && i < 4096; i++) {
		const tk_symbol *s = tk_symtab_at(t, i);
		uint64_t off;
		if (tk_symtab_lookup(t, s->start, &off) != s || off != 0)
			__builtin_trap(); /* every kept symbol finds itself */
		tk_symtab_lookup(t, s->start + s->size, &off);
		tk_symtab_lookup(t, s->start - 1, &off);
	}
	tk_symtab_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tk_symtab *t;
	if (tk_symtab_load_kallsyms_memory((const char *)data, size, "kallsyms", &t, NULL) == TK_OK)
		probe(t);
	if (tk_symtab_load_perf_map_memory((const char *)data, size, "perf.map", &t, NULL) == TK_OK)
		probe(t);
	return 0;
}
