/* oom.h - running out of host memory: the simulation cannot go on, and says
 * so once, naming where, before it stops (abort, for a core dump). */
#ifndef SIM_OOM_H
#define SIM_OOM_H

#include <stddef.h>

/* "slabsim: out of host memory in WHERE", then abort(). */
_Noreturn void host_oom(const char *where);

/* malloc, calloc and realloc that never return NULL (host_oom instead). */
void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);

#endif
