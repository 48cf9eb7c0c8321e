/* Addresses to symbols: ELF .symtab/.dynsym (libelf), build ids and the
 * ~/.debug/.build-id cache perf uses, /proc/kallsyms, /tmp/perf-PID.map.
 *
 * Not meant to be included alone: include <tracekit/tracekit.h>.
 *
 * A tk_symtab is an immutable, sorted table of symbols in one address
 * space: ELF virtual addresses for an image, kernel addresses for kallsyms,
 * process addresses for a perf map. Lookups are O(log n) in a flat sorted
 * array; the first lookup that lands where ELF symbols overlap builds
 * perf's tree for the table (once). Results point into the table and stay
 * valid until it is freed.
 * Symbol ends follow perf: a symbol without a size ends where the next one
 * starts; at one address the best symbol is kept the way perf chooses it
 * (sized over unsized, non-weak over weak, global over local, fewer leading
 * underscores, then the longer name). Where ELF symbol ranges overlap (a
 * size-less _init stretched over the PLT, assembler aliases), lookups give
 * perf's answer by searching a replica of perf's red-black tree.
 *
 * A tk_symcache owns the tables it loads, loads each image at most once
 * and only when first asked, and remembers failures so a missing file is
 * not retried per sample. Not thread-safe. */
#ifndef TRACEKIT_SYMBOLS_H
#define TRACEKIT_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "status.h"

typedef struct tk_symtab tk_symtab;

typedef struct tk_symbol {
	const char *name; /* NUL-terminated */
	uint64_t start;
	uint64_t size;      /* after end fix-ups; 0 (ELF lookups only) = perf
			     * matches it at its start alone */
	const char *module; /* kallsyms "[module]" without brackets, else NULL */
	char type;          /* kallsyms type letter; 'T' or 'D'... for ELF */
} tk_symbol;

/* One PT_LOAD segment of an ELF image. */
typedef struct tk_elf_segment {
	uint64_t vaddr, memsz, offset, filesz;
	bool exec;
} tk_elf_segment;

#define TK_BUILD_ID_MAX 64

/* ELF images. path: a file; data: a whole ELF in memory (copied). Both
 * accept ET_EXEC, ET_DYN and ET_REL of either class and byte order. Symbols
 * come from .symtab when it has functions, else .dynsym (as perf does). */
tk_status tk_symtab_load_elf(const char *path, tk_symtab **out, tk_error *err);
tk_status tk_symtab_load_elf_memory(const void *data, size_t size, const char *name,
				    tk_symtab **out, tk_error *err);
/* Kernel symbols in /proc/kallsyms text form ("addr type name [module]").
 * path NULL = /proc/kallsyms. Types T, W, D, B are kept, as perf does.
 * TK_ERR_UNSUPPORTED when every address is 0 (kernel.kptr_restrict). */
tk_status tk_symtab_load_kallsyms(const char *path, tk_symtab **out, tk_error *err);
/* on: /proc/kallsyms is read once for the whole process and that text is
 * reused by every later load of the default path (a process reading many
 * recordings, such as a cluster worker, pays the kernel's formatting once;
 * modules loaded afterwards are not seen). off (the default): read each
 * time; the kept text is freed. Thread-safe. */
void tk_symbols_keep_kallsyms(bool on);
tk_status tk_symtab_load_kallsyms_memory(const char *text, size_t len, const char *name,
					 tk_symtab **out, tk_error *err);
/* JIT symbols in perf map form ("START SIZE name", hex). */
tk_status tk_symtab_load_perf_map(const char *path, tk_symtab **out, tk_error *err);
tk_status tk_symtab_load_perf_map_memory(const char *text, size_t len, const char *name,
					 tk_symtab **out, tk_error *err);
void tk_symtab_free(tk_symtab *t); /* NULL is fine */

/* The symbol containing addr, or NULL; *offset (may be NULL) = addr - start. */
const tk_symbol *tk_symtab_lookup(const tk_symtab *t, uint64_t addr, uint64_t *offset);
size_t tk_symtab_count(const tk_symtab *t);
const tk_symbol *tk_symtab_at(const tk_symtab *t, size_t i); /* sorted by start */
const char *tk_symtab_name(const tk_symtab *t);              /* path or name given */

/* ELF facts (false / 0 for kallsyms and perf maps). */
/* Build id from the GNU build-id note; returns its length (0 = none). */
size_t tk_symtab_build_id(const tk_symtab *t, uint8_t id[TK_BUILD_ID_MAX]);
/* The .text section (else the first executable segment). */
bool tk_symtab_text(const tk_symtab *t, uint64_t *vaddr, uint64_t *size, uint64_t *file_offset);
size_t tk_symtab_segments(const tk_symtab *t, const tk_elf_segment **segs);
/* File offset (e.g. a mapping's pgoff + ip - start) to the ELF virtual
 * address symbols use; false when no PT_LOAD segment holds it. */
bool tk_symtab_offset_to_vaddr(const tk_symtab *t, uint64_t file_offset, uint64_t *vaddr);
bool tk_symtab_is_relocatable(const tk_symtab *t); /* ET_DYN or ET_REL */

/* Reads only the build id of an ELF file (no symbols); returns its length,
 * 0 when the file has none or cannot be read. */
size_t tk_elf_build_id(const char *path, uint8_t id[TK_BUILD_ID_MAX]);
/* Lowercase hex of id into buf (2*len+1 bytes). */
void tk_build_id_hex(const uint8_t *id, size_t len, char *buf);
/* The inverse for a 40-digit (SHA-1) or 32-digit (MD5/UUID) hex string:
 * returns the id's length, 0 when text is not such a string (an image id
 * made another way). */
size_t tk_build_id_parse(const char *text, uint8_t id[TK_BUILD_ID_MAX]);

/* ---- Image cache ----------------------------------------------------- */

typedef struct tk_symcache tk_symcache;

typedef struct tk_symcache_options {
	const char *debug_dir;    /* perf's build-id cache; NULL = $HOME/.debug */
	const char *root;         /* prefix for image paths (a sysroot); NULL = none */
	const char *kallsyms;     /* NULL = /proc/kallsyms */
	const char *perf_map_dir; /* NULL = /tmp */
	bool no_debug_cache;      /* ignore the build-id cache */
	tk_log_fn log;            /* one warning per image that cannot be loaded */
	void *log_user;
	/* The persistent symbol cache: parsed kallsyms and ELF symbol tables
	 * kept as files that later runs map instead of parsing again (keyed
	 * by build id and by what else the table was made from; checked
	 * before use; safe to delete). cache_dir NULL = $XDG_CACHE_HOME/
	 * tracekit, else ~/.cache/tracekit. Off with no_symbol_cache or the
	 * environment variable TRACEKIT_NO_SYMCACHE=1. */
	const char *cache_dir;
	bool no_symbol_cache;
} tk_symcache_options;

tk_symcache *tk_symcache_new(const tk_symcache_options *opt); /* NULL: out of memory */
void tk_symcache_free(tk_symcache *c);

/* The symbols of an image, loaded on first use. Candidates, in perf's
 * order: the build-id cache (DEBUG/.build-id/xx/rest/elf, or the link
 * itself in the old layout), its .../debug, /usr/lib/debug/.build-id/xx/
 * rest.debug, then root + path. The first with a .symtab gives the symbols
 * (else the first with a .dynsym), as perf picks them; a candidate whose
 * own build id differs is rejected. Without build_id, the one read from
 * the file at path is used for the search (as perf does). NULL when nothing
 * usable was found (remembered). */
const tk_symtab *tk_symcache_image(tk_symcache *c, const char *path, const uint8_t *build_id,
				   size_t build_id_len);
/* Kernel symbols (kallsyms), loaded once; NULL when unreadable. For the
 * running kernel, the kernel's own symbols may come from perf's build-id
 * cache copy of kallsyms when it is provably the same data (see the man
 * page, KERNEL SYMBOLS; TRACEKIT_NO_KALLSYMS_COPY=1 turns that off): then
 * lookups still answer for every address (modules and the rest from
 * /proc/kallsyms, read on first need), but tk_symtab_count/at list the
 * kernel's own symbols only. */
const tk_symtab *tk_symcache_kernel(tk_symcache *c);
/* perf-PID.map of a JIT process, loaded once per pid; NULL when absent. */
const tk_symtab *tk_symcache_perf_map(tk_symcache *c, int pid);
/* Counters, for stats and tests: tables parsed from their files, tables
 * read from the persistent cache, tables written to it. */
uint64_t tk_symcache_loads(const tk_symcache *c);
uint64_t tk_symcache_persistent_hits(const tk_symcache *c);
uint64_t tk_symcache_persistent_writes(const tk_symcache *c);

#endif
