/* Loading the kernel's symbol table in a background thread.
 *
 * Why: with no persistent cache, reading /proc/kallsyms (the kernel formats
 * 120 k lines on every read) and parsing it took about a quarter of a cold
 * `print --format perf-script` run, while the reader could be opening the
 * file and loading the first images. The thread reads, parses and (given
 * a cache key) encodes the table; nothing is shared with the caller until
 * tk_kprefetch_finish() hands the table over, so the table itself needs
 * no locking and the output is the same as a load in the caller.
 *
 * Internal to src/symbols. One prefetch is used from one thread. */
#ifndef TK_SYMBOLS_KERNEL_PREFETCH_H
#define TK_SYMBOLS_KERNEL_PREFETCH_H

#include <stdbool.h>
#include <stddef.h>

#include "tracekit/tracekit.h"

typedef struct tk_kprefetch tk_kprefetch;

/* true when background threads are allowed (TRACEKIT_THREADS is not "0"). */
bool tk_symbols_threads_enabled(void);

/* Starts loading kallsyms file path (NULL: /proc/kallsyms, as
 * tk_symtab_load_kallsyms) and, when key is not NULL, encoding it as a
 * cache file with that key (copied). NULL when the thread cannot start
 * (the caller then loads it itself). */
tk_kprefetch *tk_kprefetch_start(const char *path, const void *key, size_t key_len);

/* The path it loads (NULL: /proc/kallsyms). */
const char *tk_kprefetch_path(const tk_kprefetch *p);

/* Waits for the thread and frees p. The table (or the load's status and
 * err) and, when a key was given and encoding worked, the encoded file
 * (malloc'ed, *enc NULL otherwise) go to the caller. */
tk_status tk_kprefetch_finish(tk_kprefetch *p, tk_symtab **out, void **enc, size_t *enc_len,
			      tk_error *err);

#endif
