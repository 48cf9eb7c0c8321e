/* The running kernel's core symbols from perf's build-id cache copy of
 * /proc/kallsyms, instead of /proc/kallsyms itself.
 *
 * Why: the kernel formats /proc/kallsyms (120 k lines, 5 MB) on every
 * read, 40-80 ms of system time, most of a cold `print --format
 * perf-script` run. perf record copies the file into its build-id cache,
 * DEBUG/[kernel.kallsyms]/<build id>/kallsyms (DEBUG: the debug_dir
 * option, else $HOME/.debug as perf 6.1 uses it: PERF_BUILDID_DIR is
 * only what perf tells the scripts it runs), and a regular file is read
 * in a millisecond.
 *
 * Why it is the same data: /proc/kallsyms starts with the core kernel's
 * symbols, a function of the kernel image (its build id) and of the KASLR
 * offset alone; only the lines after them ("\t[module]": modules, bpf
 * programs, ftrace and kprobe trampolines) change while the kernel runs.
 * So the copy's core lines are used when
 * - the copy is the running kernel's (its directory is the running build
 *   id, which is also the recording's when a recording names one),
 * - its first bytes, through the "_text" and "_stext" lines, are those of
 *   /proc/kallsyms now (tk_kallsyms_copy_matches: the same offset and the
 *   same view of addresses; reading the head of /proc/kallsyms formats
 *   only those lines),
 * - a [module] line follows the core lines (the copy is not cut short
 *   inside them: tk_symtab_load_kallsyms_core fails otherwise).
 * Lookups outside [first core symbol, last core symbol) go to the whole
 * /proc/kallsyms table, loaded then (tk_symtab_set_rest; when modules
 * are loaded, the prefetch thread reads it beside the core and stops if
 * the run ends without needing it: kernel_prefetch.h): the last core
 * symbol's end and every module or trampoline symbol come from it, so
 * kernel frames resolve exactly as from /proc/kallsyms. The runtime lines
 * are allocated outside the kernel image (module_alloc/execmem), so none
 * falls between two core symbols.
 * TRACEKIT_NO_KALLSYMS_COPY=1 turns this off (tests, benchmarks).
 *
 * Internal to src/symbols. */
#ifndef TK_SYMBOLS_KALLSYMS_CORE_H
#define TK_SYMBOLS_KALLSYMS_CORE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "tracekit/tracekit.h"

/* The core lines of kallsyms file path (or of text[0..len)): the lines
 * before the first one with a [module]; TK_ERR_FORMAT when there is no
 * such line, or when a core line is malformed. The text is only read
 * (a regular file through its mapping) and the names copied out. */
tk_status tk_symtab_load_kallsyms_core(const char *path, tk_symtab **out, tk_error *err);
tk_status tk_symtab_load_kallsyms_core_memory(const char *text, size_t len, const char *name,
					      tk_symtab **out, tk_error *err);

/* /proc/kallsyms as tk_symtab_load_kallsyms(NULL) loads it, giving up
 * with TK_ERR_INTERRUPTED once *stop is set (for a background load that
 * may turn out not to be needed: kernel_prefetch.h). */
tk_status tk_symtab_load_kallsyms_until(const atomic_bool *stop, tk_symtab **out, tk_error *err);

/* The copy at path starts with the same bytes as proc (NULL:
 * /proc/kallsyms) up to and including its "_text" and "_stext" lines,
 * found in the first 64 KiB; false on any doubt. */
bool tk_kallsyms_copy_matches(const char *path, const char *proc);

/* Makes core, a table from tk_symtab_load_kallsyms_core (or its cache
 * file), answer lookups outside [its first symbol, its last symbol) from
 * rest(ctx), the whole table, loaded on first need (NULL: no symbol).
 * tk_symtab_count/at still give the core symbols only. */
void tk_symtab_set_rest(tk_symtab *core, const tk_symtab *(*rest)(void *ctx), void *ctx);

/* The table's core range is set (tk_symtab_set_rest): for tests. */
bool tk_symtab_has_rest(const tk_symtab *t);

#endif
