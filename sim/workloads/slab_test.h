/* slab_test.h - the slab_test module's results and its output lines. */
#ifndef SIM_SLAB_TEST_H
#define SIM_SLAB_TEST_H

#include <stdbool.h>
#include <stdio.h>

#include "workload.h"

#define ST_PAGE_SIZE 4096

struct st_result {
	int test, size;
	double alloc_cycles, free_cycles;	/* test 2: the pair in alloc_cycles */
	double *per_cpu;			/* tests 3-5: alloc/free per CPU */
	bool pairs;				/* test 3's Kmalloc N*(alloc free) */
	double ops_per_second;			/* tests 3-5: the CPUs' phase-1 rates, summed */
};

/* The module's name of a concurrent result ("Kmalloc N*(alloc free)"). */
const char *slab_test_name(const struct st_result *r);

/* The module's printk lines for every result; with `pub`, its figures
 * beside each test 1 and 2 line that has them. */
void slab_test_print(FILE *out, const struct st_result *res, int nres, int ncpus, int count,
		     const struct wl_published *pub);

#endif
