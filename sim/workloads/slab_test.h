/* slab_test.h - the slab_test module's results, its output lines, and the
 * published figures they are compared with (docs/calibration.md C2). */
#ifndef SIM_SLAB_TEST_H
#define SIM_SLAB_TEST_H

#include <stdbool.h>
#include <stdio.h>

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

/* The module's printk lines for every result; with `compare`, the C2 cell of
 * `policy` (slab, slqb or slub) beside each test 1 and 2 line. */
void slab_test_print(FILE *out, const struct st_result *res, int nres, int ncpus, int count,
		     bool compare, const char *policy);

/* C2's cell for policy, test (1 or 2) and size: alloc and free cycles (test
 * 2: the pair in *alloc). false if C2 has no such cell. */
bool slab_test_c2(const char *policy, int test, int size, double *alloc, double *free_);

#endif
