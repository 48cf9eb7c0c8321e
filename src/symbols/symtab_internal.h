/* Internals of the symbol tables: the builder every loader fills and the
 * table layout. */
#ifndef TK_SYMTAB_INTERNAL_H
#define TK_SYMTAB_INTERNAL_H

#include "base/arena.h"
#include "base/hashmap.h"
#include "symbols/symtree.h"
#include "tracekit/tracekit.h"

/* Symbols per block of the lookup index (symtab.c). */
#define TK_SYMTAB_BLOCK 64

/* Binding, as far as choosing between symbols at one address goes. */
enum { TK_BIND_LOCAL = 0, TK_BIND_GLOBAL = 1, TK_BIND_WEAK = 2 };

struct tk_symtab {
	tk_symbol *syms;
	uint8_t *bind; /* per symbol while building; freed by finish */
	size_t n, cap;
	tk_arena names;
	char *text; /* kallsyms: the file's text, names point into it */
	/* kallsyms: where the function symbols "_text" and "_stext" are (the
	 * names perf record uses as its relocation reference), found on any
	 * line (aliases at one address are merged away in syms) */
	uint64_t ref_text, ref_stext;
	bool has_ref_text, has_ref_stext;
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
	/* ELF: lookups agree with perf's red-black tree. syms is the tree's
	 * in-order content (computed by sorting, as the tree's shape does not
	 * change it); where a symbol overlaps no other one, every search path
	 * of the tree ends at it, so syms answers alone. The tree itself is
	 * built from the table-order copy below on the first lookup that lands
	 * where symbols overlap (perf's answer there depends on its shape). */
	/* lookup index of large tables: top[k] = syms[k * TK_SYMTAB_BLOCK].start */
	uint64_t *top;
	size_t n_top;
	bool use_tree;
	uint8_t *clean;        /* per syms[i]: 1 = overlaps no other symbol */
	tk_symbol *order_syms; /* symbols in table order, for the tree */
	uint8_t *order_bind;   /* their bindings */
	size_t order_n;
	tk_symbol *late; /* inserted after the fix-ups (PLT), in order */
	size_t n_late, cap_late;
	int tree_state; /* 0 not built, 1 built, -1 out of memory */
	tk_symtree tree;
	/* A table read from the persistent cache (symcache_file.c): the
	 * arrays below point into the file's bytes, syms is NULL and entry i
	 * is made on first use (m_made), so a warm load touches only the
	 * symbols the output names; clean, top, order_* and late
	 * come from the file too (order_* and late only if the tree is
	 * needed). map_len != 0: map_base is a mapping of symfile_maps.h, which
	 * the table gives back when freed (tables of one file share it). */
	bool mapped;
	tk_hashmap m_made; /* symbol index -> its tk_symbol (in names) */
	const unsigned char *m_start, *m_size, *m_name, *m_module, *m_type, *m_clean, *m_top;
	const unsigned char *m_order, *m_late;
	const char *m_str;
	size_t m_str_len, m_order_n, m_late_n;
	void *map_base;
	size_t map_len;
	/* fills order_* and late from the file before the tree is built
	 * (set by the reader, which symtab.c does not depend on) */
	bool (*unpack_order)(tk_symtab *t);
	/* The core kernel's symbols only (kallsyms_core.h): lookups outside
	 * [core_lo, core_hi) go to rest(rest_ctx), the whole table. */
	const tk_symtab *(*rest)(void *ctx);
	void *rest_ctx;
	uint64_t core_lo, core_hi;
	/* A view of another table (tk_symtab_view): the arrays are its, only
	 * this struct is freed. */
	bool view;
};

typedef enum tk_symtab_mode {
	TK_SYMTAB_PLAIN,    /* perf maps: sorted array, perf's fix-ups */
	TK_SYMTAB_KALLSYMS, /* plus the kernel/module boundary rule */
	TK_SYMTAB_ELF,      /* perf's tree replica (symtree.h) */
} tk_symtab_mode;

tk_symtab *tk_symtab_new(const char *name);
/* Adds a symbol whose name (and module) are NUL-terminated and live as long
 * as t (kallsyms names in t->text). false: out of memory. */
bool tk_symtab_add_ref(tk_symtab *t, const char *name, uint64_t start, uint64_t size, char type,
		       int bind, const char *module);
/* Room for n more symbols without reallocation. false: out of memory. */
bool tk_symtab_reserve(tk_symtab *t, size_t n);
/* Copies name[0..len) into the table's arena. false: out of memory. */
bool tk_symtab_add(tk_symtab *t, const char *name, size_t len, uint64_t start, uint64_t size,
		   char type, int bind, const char *module, size_t module_len);
/* Sorts, fixes ends, keeps the best symbol per address (perf's rules and
 * order). Out of memory leaves an empty table. */
void tk_symtab_finish(tk_symtab *t, tk_symtab_mode mode);

/* perf's symbols__find() on its tree, building the tree first if needed
 * (the lookup above uses it only where symbols overlap). NULL when no
 * symbol holds addr or the tree cannot be built. ELF tables only. */
const tk_symbol *tk_symtab_lookup_tree(const tk_symtab *t, uint64_t addr);

/* Another thread's view of t, which must outlive it: the same symbols
 * (lookups only read a table that is neither mapped from the cache nor
 * searched through perf's tree), its own rest callback (NULL: none; set
 * by the caller). NULL: t cannot be shared so (a cache file's table, an
 * ELF table, one not finished) or out of memory. */
tk_symtab *tk_symtab_view(const tk_symtab *t);

/* Adds from->plt to t (names copied) after the fix-ups, as perf 6.1 does
 * (no truncation of a symbol stretched over the PLT: that came in 6.3).
 * Nothing when t has no symbols (perf skips the PLT then). t may equal
 * from. false: out of memory. */
bool tk_symtab_merge_plt(tk_symtab *t, const tk_symtab *from);

#endif
