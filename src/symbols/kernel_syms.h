/* Choosing the kernel symbol table the way perf 6.1 does for a recording
 * (symbol.c dso__load_kernel_sym / dso__find_kallsyms, machine.c kernel
 * MMAP handling), so kernel frames of a file recorded elsewhere come out
 * as `perf script` prints them on this machine:
 * - a user-given kallsyms file (tk_symcache_options.kallsyms) is used as is;
 * - a recording with no build id for [kernel.kallsyms] uses /proc/kallsyms;
 * - one whose kernel build id is the running kernel's (/sys/kernel/notes)
 *   uses /proc/kallsyms (its core kernel lines read from the build-id
 *   cache's copy when that is provably the same data: kallsyms_core.h);
 *   any other looks for the build-id cache's copy,
 *   DEBUG/[kernel.kallsyms]/<id>/kallsyms, and has no symbols without it.
 * The kernel's symbols are then moved by the relocation perf computes from
 * the recording's reference symbol ("[kernel.kallsyms]_text" MMAP, pgoff =
 * its address at record time): delta = its address in the table - pgoff.
 *
 * Internal to src/symbols and src/analysis; not thread-safe. */
#ifndef TK_SYMBOLS_KERNEL_SYMS_H
#define TK_SYMBOLS_KERNEL_SYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracekit/tracekit.h"

/* The GNU build id in an ELF notes file such as /sys/kernel/notes (notes
 * in the machine's byte order); its length, 0 when absent or unreadable. */
size_t tk_sysfs_build_id(const char *path, uint8_t id[TK_BUILD_ID_MAX]);

/* perf's dso__build_id_equal(): equal, or the recorded id is 20 bytes whose
 * tail past the host id's length is zeros. */
bool tk_build_id_equal(const uint8_t *recorded, size_t recorded_len, const uint8_t *host,
		       size_t host_len);

/* The kallsyms table perf would load for a kernel whose recorded build id
 * is build_id (len 0: none), loaded once per file; NULL when perf would
 * find none. notes: the running kernel's notes (NULL = /sys/kernel/notes). */
const tk_symtab *tk_symcache_kernel_for(tk_symcache *c, const uint8_t *build_id,
					size_t build_id_len, const char *notes);

/* Starts loading the table tk_symcache_kernel() gives in a background
 * thread (kernel_prefetch.h), when the kernel of a recording with this
 * build id would get it (as tk_symcache_kernel_for decides) and the
 * persistent cache does not hold it (from which it is read at once);
 * nothing with TRACEKIT_THREADS=0 or once the table was asked for. The
 * table is then the same as a load at the first kernel frame. cached_only:
 * only a read from the persistent cache, no thread (print's second lane,
 * which starts only on a warm cache: output/print_lanes.h). */
void tk_symcache_prefetch_kernel(tk_symcache *c, const uint8_t *build_id, size_t build_id_len,
				 const char *notes, bool cached_only);

/* A table started by tk_symcache_prefetch_kernel() is still being built:
 * tk_symcache_kernel() would wait for it now. With TRACEKIT_KERNEL_DEFER=
 * always (for tests), true until the table is asked for. */
bool tk_symcache_kernel_pending(const tk_symcache *c);

/* tk_symcache_kernel() when it is loaded or loading in the background
 * (waits for it then); NULL otherwise: nothing is loaded for this. */
const tk_symtab *tk_symcache_kernel_loaded(tk_symcache *c);

/* Makes tk_symcache_kernel() give a view of from, the table another
 * cache's tk_symcache_kernel() gave (print's second lane borrows the first
 * lane's: output/print_lanes.h); from must outlive c. Nothing (false) when
 * c has its kernel table already or from cannot be viewed (then c loads
 * its own when asked). */
bool tk_symcache_adopt_kernel(tk_symcache *c, const tk_symtab *from);

/* The running process's own [vdso] (as perf copies it from its memory
 * for a recorded [vdso] without a build id: vdso.c), loaded once; NULL
 * when there is none. */
const tk_symtab *tk_symcache_host_vdso(tk_symcache *c);

/* perf's build-id cache directory (tk_symcache_options.debug_dir, else
 * $HOME/.debug), or NULL when there is none. */
const char *tk_symcache_debug_dir(const tk_symcache *c);

/* A file offset in an image (a mapping's pgoff + ip - start) to the ELF
 * address its symbols use, the way perf 6.1 relates the two (segments
 * taken at max(memsz, filesz), so .bss offsets map too); false when no
 * PT_LOAD holds it. */
bool tk_symtab_offset_to_symbol_vaddr(const tk_symtab *t, uint64_t file_offset, uint64_t *vaddr);

/* kallsyms__get_function_start() for the reference names perf record
 * writes ("_text", "_stext"): false when t has no such function. */
bool tk_kallsyms_function_start(const tk_symtab *t, const char *name, uint64_t *addr);

#endif
