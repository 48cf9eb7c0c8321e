/* Zeroed memory for perf script's caches (perf_script_lines.h,
 * perf_script_chains.h), on 2 MiB boundaries and marked for transparent
 * huge pages.
 *
 * Why: the caches' tables and text stores are read at random all through
 * the run, and with 4 KiB pages the TLB misses (costly under
 * virtualization) outweigh the cache misses. Pages are only backed once
 * written, so a generous bound costs address space, not memory. */
#ifndef TK_OUTPUT_PERF_SCRIPT_MEM_H
#define TK_OUTPUT_PERF_SCRIPT_MEM_H

#include <stddef.h>

/* *n bytes, rounded up to whole huge pages (the new size is stored in
 * *n); NULL when out of memory. */
void *tk_script_big_alloc(size_t *n);
/* Frees what tk_script_big_alloc gave (n: the size it stored). NULL is fine. */
void tk_script_big_free(void *p, size_t n);

#endif
