/* Loading the kernel's symbol table in a background thread.
 *
 * Why: with no persistent cache, reading /proc/kallsyms (the kernel formats
 * 120 k lines on every read) and parsing it took about a quarter of a cold
 * `print --format perf-script` run, while the reader could be opening the
 * file and loading the first images. The thread reads and parses the
 * table and hands it over as soon as it is built (tk_kprefetch_take); then,
 * given a cache key, it encodes the table and writes its cache file while
 * the caller already looks symbols up in it. Both only read the finished
 * table (a kallsyms table has no lazily built parts), so it needs no
 * locking, and the output is the same as a load in the caller.
 *
 * Internal to src/symbols. One prefetch is used from one thread. */
#ifndef TK_SYMBOLS_KERNEL_PREFETCH_H
#define TK_SYMBOLS_KERNEL_PREFETCH_H

#include <stdbool.h>
#include <stddef.h>

#include "tracekit/tracekit.h"

typedef struct tk_kprefetch tk_kprefetch;

/* With a core table (kallsyms_core.h): also load the whole /proc/kallsyms
 * once the core is handed over, for lookups outside the core (module
 * frames), and write it as cache file `file` with key (NULL: no file).
 * Stopped, and not written, if still running at tk_kprefetch_finish: a
 * run that never needed it does not wait for it. */
typedef struct tk_kprefetch_whole {
	const void *key;
	size_t key_len;
	const char *file;
} tk_kprefetch_whole;

/* true when background threads are allowed (TRACEKIT_THREADS is not "0"). */
bool tk_symbols_threads_enabled(void);

/* Starts loading kallsyms file path (NULL: /proc/kallsyms, as
 * tk_symtab_load_kallsyms; core: only its core lines, as
 * tk_symtab_load_kallsyms_core) and, when key and file are not NULL,
 * writing it as cache file `file` (a full path) with that key (both
 * copied). NULL when the thread cannot start (the caller then loads it
 * itself). */
tk_kprefetch *tk_kprefetch_start(const char *path, bool core, const void *key, size_t key_len,
				 const char *file, const struct tk_kprefetch_whole *whole);

/* It loads only the core lines (tk_kprefetch_start's core). */
bool tk_kprefetch_core(const tk_kprefetch *p);

/* The path it loads (NULL: /proc/kallsyms). */
const char *tk_kprefetch_path(const tk_kprefetch *p);

/* The table is built (or failed): tk_kprefetch_take() would not wait. */
bool tk_kprefetch_ready(const tk_kprefetch *p);

/* Waits for the table and hands it to the caller (or the load's status and
 * err). The thread may still be encoding it: the caller only looks it up
 * and frees it after tk_kprefetch_finish(). Once per prefetch. */
tk_status tk_kprefetch_take(tk_kprefetch *p, tk_symtab **out, tk_error *err);

/* The whole table was asked for at the start (tk_kprefetch_whole). */
bool tk_kprefetch_has_whole(const tk_kprefetch *p);

/* Waits for the whole table and hands it over, as tk_kprefetch_take. */
tk_status tk_kprefetch_take_whole(tk_kprefetch *p, tk_symtab **out, tk_error *err);

/* Stops the whole table's load if it still runs, waits for the thread and
 * frees p; tables never taken are freed too. Returns what writing the
 * cache file gave: 1 written, 0 failed, -1 the directory cannot be
 * written, 2 nothing written (no key, no table); *whole_wrote (may be
 * NULL) the same for the whole table's. */
int tk_kprefetch_finish(tk_kprefetch *p, int *whole_wrote);

#endif
