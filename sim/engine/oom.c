/* oom.c - out of host memory: one message, then stop (oom.h). */
#include "oom.h"

#include <stdio.h>
#include <stdlib.h>

_Noreturn void host_oom(const char *where)
{
	fflush(stdout);
	fprintf(stderr, "slabsim: out of host memory in %s\n", where);
	abort();
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		host_oom("xmalloc");
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		host_oom("xcalloc");
	return p;
}

void *xrealloc(void *p, size_t size)
{
	void *q = realloc(p, size ? size : 1);
	if (!q)
		host_oom("xrealloc");
	return q;
}
