/* hostmem.c - 2 MB aligned anonymous mappings with transparent huge pages. */
#include "hostmem.h"

#include <stdint.h>
#include <sys/mman.h>

#define HOSTMEM_ALIGN ((size_t)2 << 20)

/* `bytes` rounded up to a whole number of 2 MB pieces. */
static size_t hostmem_round(size_t bytes)
{
	return (bytes + HOSTMEM_ALIGN - 1) & ~(HOSTMEM_ALIGN - 1);
}

void *hostmem_alloc(size_t bytes)
{
	if (!bytes)
		return NULL;
	size_t len = hostmem_round(bytes), map = len + HOSTMEM_ALIGN;
	char *p = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	/* trim the mapping to a 2 MB aligned piece of `len` bytes */
	char *start = (char *)(((uintptr_t)p + HOSTMEM_ALIGN - 1) & ~(uintptr_t)(HOSTMEM_ALIGN - 1));
	if (start > p)
		munmap(p, (size_t)(start - p));
	size_t tail = (size_t)(p + map - (start + len));
	if (tail)
		munmap(start + len, tail);
#ifdef MADV_HUGEPAGE
	madvise(start, len, MADV_HUGEPAGE);	/* advice only: fine if refused */
#endif
	return start;
}

void hostmem_free(void *p, size_t bytes)
{
	if (p)
		munmap(p, hostmem_round(bytes));
}
