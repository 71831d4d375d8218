/* hostmem.h - large zeroed host arrays for the model's hot tables (the die
 * caches' tags, mem_map): the model is bound by the host's cache and TLB
 * misses, so these come from anonymous memory, 2 MB aligned, asking the
 * host kernel for transparent huge pages (one TLB entry per 2 MB instead of
 * 512). Pages are zero and only take memory once touched. */
#ifndef SIM_HOSTMEM_H
#define SIM_HOSTMEM_H

#include <stddef.h>

/* `bytes` of zeroed memory, 2 MB aligned; NULL if the host has none. */
void *hostmem_alloc(size_t bytes);

/* Give back what hostmem_alloc(bytes) returned (NULL is ignored). */
void hostmem_free(void *p, size_t bytes);

#endif
