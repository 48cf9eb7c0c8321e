/* Zeroed memory on 2 MiB boundaries, marked for transparent huge pages:
 * perf script's caches (perf_script_lines.h, perf_script_chains.h) and
 * the threads model's map arrays (threads_model.c).
 *
 * Why: the caches' tables and text stores are read at random all through
 * the run, and with 4 KiB pages the TLB misses (costly under
 * virtualization) outweigh the cache misses; the map arrays grow by a
 * parent's copy at every fork, and each fresh 4 KiB page is a page fault
 * (several microseconds each in a VM). Pages are only backed once
 * written, so a generous bound costs address space, not memory. */
#ifndef TK_BASE_HUGEMEM_H
#define TK_BASE_HUGEMEM_H

#include <stddef.h>

/* *n bytes, rounded up to whole huge pages (the new size is stored in
 * *n); NULL when out of memory. */
void *tk_huge_alloc(size_t *n);
/* Frees what tk_huge_alloc gave (n: the size it stored). NULL is fine. */
void tk_huge_free(void *p, size_t n);

#endif
