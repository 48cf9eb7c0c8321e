/* The CLI's heap on transparent huge pages (what glibc's
 * GLIBC_TUNABLES=glibc.malloc.hugetlb=1 does, without asking users to
 * set it).
 *
 * Why: `print` on a 50 MB `-g -a` recording touches its thread, map,
 * image and symbol tables at random all through the run; with 4 KiB
 * pages each fresh page is a fault and each table walk a TLB miss, both
 * costly under virtualization. The heap is reserved 64 MiB at a time
 * (pages are backed only when written) and marked for huge pages past
 * its first 4 MiB; the library itself never changes its host's malloc
 * (Python, sqlite3). */
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"

#define HUGE_PAGE ((uintptr_t)2 << 20)
#define HEAP_STEP ((size_t)64 << 20)
/* the first megabytes stay on small pages: a short run touches only
 * them and would pay for zeroing whole huge pages */
#define SMALL_HEAD ((uintptr_t)4 << 20)

void tk_cli_heap_huge_pages(void)
{
#ifdef MADV_HUGEPAGE
	/* each extension of the heap is at least HEAP_STEP, and freeing does
	 * not give the top back (a re-grown heap would lose the advice).
	 * Setting these turns off glibc's sliding mmap threshold, which
	 * would have moved blocks up to 32 MiB into the heap after the first
	 * free of one: done here instead, or every large buffer would be a
	 * fresh mmap (and its page faults) each time. */
	if (!mallopt(M_TOP_PAD, (int)HEAP_STEP) ||
	    !mallopt(M_TRIM_THRESHOLD, (int)(2 * HEAP_STEP)) ||
	    !mallopt(M_MMAP_THRESHOLD, 32 << 20))
		return;
	/* one heap for every thread: a thread's own arena is a fresh mapping
	 * on small pages, and the threads that build tables (the kernel's
	 * symbols, 5 MB of text and as much of entries on a cold cache; the
	 * cache files' encoders) faulted them in 4 KiB at a time. The
	 * threads allocate little once their tables are built (print's two
	 * lanes: their caches), so the one lock costs nothing seen. */
	mallopt(M_ARENA_MAX, 1);
	void *first = malloc(1);
	char *end = sbrk(0);
	if (!first || end == (char *)-1 || (char *)first >= end) {
		free(first);
		return;
	}
	uintptr_t start = ((uintptr_t)first + SMALL_HEAD + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	if (start < (uintptr_t)end)
		madvise((void *)start, (uintptr_t)end - start, MADV_HUGEPAGE);
	free(first);
#endif
}
