/* Huge-page memory; see hugemem.h. */
#include <stdint.h>
#include <sys/mman.h>

#include "base/hugemem.h"

#define HUGE_PAGE ((size_t)2 << 20)

void *tk_huge_alloc(size_t *n)
{
	size_t size = (*n + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	char *p = mmap(NULL, size + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	/* the mapping is one huge page longer than asked: trimmed to a
	 * 2 MiB-aligned start */
	size_t head = (HUGE_PAGE - ((uintptr_t)p & (HUGE_PAGE - 1))) & (HUGE_PAGE - 1);
	if (head)
		munmap(p, head);
	if (HUGE_PAGE - head)
		munmap(p + head + size, HUGE_PAGE - head);
#ifdef MADV_HUGEPAGE
	madvise(p + head, size, MADV_HUGEPAGE);
#endif
	*n = size;
	return p + head;
}

void tk_huge_free(void *p, size_t n)
{
	if (p)
		munmap(p, n);
}
