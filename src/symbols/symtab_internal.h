/* Internals of the symbol tables: the builder every loader fills and the
 * table layout. */
#ifndef TK_SYMTAB_INTERNAL_H
#define TK_SYMTAB_INTERNAL_H

#include "base/arena.h"
#include "symbols/symtree.h"
#include "tracekit/tracekit.h"

/* Binding, as far as choosing between symbols at one address goes. */
enum { TK_BIND_LOCAL = 0, TK_BIND_GLOBAL = 1, TK_BIND_WEAK = 2 };

struct tk_symtab {
	tk_symbol *syms;
	uint8_t *bind; /* per symbol while building; freed by finish */
	size_t n, cap;
	tk_arena names;
	char *name;
	/* ELF only */
	bool is_elf;
	bool relocatable;
	uint8_t build_id[TK_BUILD_ID_MAX];
	size_t build_id_len;
	bool from_symtab; /* symbols came from .symtab (not .dynsym) */
	bool has_text;
	uint64_t text_vaddr, text_size, text_offset;
	tk_elf_segment *segs;
	size_t n_segs;
	/* PLT entries synthesized from this image (elf_plt.c); also merged
	 * into syms, kept apart so they can be given to a debug file's table */
	tk_symbol *plt;
	size_t n_plt;
	/* ELF: perf's tree, for lookups that agree with perf where symbol
	 * ranges overlap; syms is then its in-order copy */
	bool use_tree;
	tk_symtree tree;
};

typedef enum tk_symtab_mode {
	TK_SYMTAB_PLAIN,    /* perf maps: sorted array, perf's fix-ups */
	TK_SYMTAB_KALLSYMS, /* plus the kernel/module boundary rule */
	TK_SYMTAB_ELF,      /* perf's tree replica (symtree.h) */
} tk_symtab_mode;

tk_symtab *tk_symtab_new(const char *name);
/* Copies name[0..len) into the table's arena. false: out of memory. */
bool tk_symtab_add(tk_symtab *t, const char *name, size_t len, uint64_t start, uint64_t size,
		   char type, int bind, const char *module, size_t module_len);
/* Sorts, fixes ends, keeps the best symbol per address (perf's rules and
 * order). Out of memory leaves an empty table. */
void tk_symtab_finish(tk_symtab *t, tk_symtab_mode mode);

/* Adds from->plt to t (names copied) after the fix-ups, as perf 6.1 does
 * (no truncation of a symbol stretched over the PLT: that came in 6.3).
 * Nothing when t has no symbols (perf skips the PLT then). t may equal
 * from. false: out of memory. */
bool tk_symtab_merge_plt(tk_symtab *t, const tk_symtab *from);

#endif
