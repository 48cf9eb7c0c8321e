/* Fuzz target: the text symbol loaders, /proc/kallsyms and perf-PID.map,
 * on the same bytes; lookups at every symbol edge. The core lines alone
 * (perf's kallsyms copy: kallsyms_core.h), backed by the whole table as
 * tracekit uses them, looked up at every edge of the whole table's
 * symbols, inside the core range and outside it (the oracle test
 * perfscript_kallsyms_copy checks the answers on real kallsyms). */
#include <string.h>

#include "symbols/kallsyms_core.h"
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

static const tk_symtab *whole_of(void *ctx)
{
	return ctx;
}

static void probe_core(tk_symtab *core, const tk_symtab *whole)
{
	tk_symtab_set_rest(core, whole_of, (void *)whole);
	for (size_t i = 0; i < tk_symtab_count(whole) && i < 4096; i++) {
		const tk_symbol *s = tk_symtab_at(whole, i);
		uint64_t at[3] = {s->start, s->start + s->size, s->start - 1};
		for (int k = 0; k < 3; k++) {
			uint64_t off = 0;
			const tk_symbol *c = tk_symtab_lookup(core, at[k], &off);
			if (c && off != at[k] - c->start)
				__builtin_trap();
		}
	}
	tk_symtab_free(core);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tk_symtab *t, *core;
	if (tk_symtab_load_kallsyms_memory((const char *)data, size, "kallsyms", &t, NULL) ==
	    TK_OK) {
		if (tk_symtab_load_kallsyms_core_memory((const char *)data, size, "copy", &core,
							NULL) == TK_OK)
			probe_core(core, t);
		probe(t);
	} else if (tk_symtab_load_kallsyms_core_memory((const char *)data, size, "copy", &core,
						       NULL) == TK_OK) {
		probe(core); /* a bad line after the core: the core loads alone */
	}
	if (tk_symtab_load_perf_map_memory((const char *)data, size, "perf.map", &t, NULL) == TK_OK)
		probe(t);
	return 0;
}
