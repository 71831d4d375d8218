/* published.c - the published figures `run --compare` prints beside a
 * workload's own lines: slab_test's single-thread tests 1 and 2 of SLAB,
 * SLQB and SLUB (docs/calibration.md C2: Nick Piggin, "SLQB slab
 * allocator", LKML, 16 Jan 2009; x86-64, cycles). The report picks the
 * column by the run's policy, so the workload never knows which ran. */
#include <string.h>

#include "report.h"
#include "engine/array_size.h"

enum { C2_SLAB, C2_SLQB, C2_SLUB, C2_COLUMNS };

static const char *const c2_column[C2_COLUMNS] = { "slab", "slqb", "slub" };

struct c2_row {
	int size;
	double cycles[C2_COLUMNS][2];	/* test 1: alloc, free */
};

static const struct c2_row c2_test1[] = {
	{ 8, { { 77, 128 }, { 69, 47 }, { 61, 77 } } },
	{ 16, { { 69, 104 }, { 116, 70 }, { 77, 80 } } },
	{ 32, { { 66, 101 }, { 82, 81 }, { 71, 89 } } },
	{ 64, { { 82, 116 }, { 95, 81 }, { 94, 105 } } },
	{ 128, { { 100, 148 }, { 106, 94 }, { 114, 163 } } },
	{ 256, { { 153, 136 }, { 134, 98 }, { 124, 186 } } },
	{ 512, { { 209, 161 }, { 170, 186 }, { 134, 276 } } },
	{ 1024, { { 331, 249 }, { 236, 245 }, { 134, 283 } } },
	{ 2048, { { 608, 443 }, { 380, 386 }, { 172, 312 } } },
	{ 4096, { { 1109, 624 }, { 678, 661 }, { 239, 372 } } },
	{ 8192, { { 1166, 1077 }, { 767, 683 }, { 535, 433 } } },
	{ 16384, { { 1213, 1160 }, { 914, 731 }, { 577, 682 } } },
};

struct c2_pair {
	int size;
	double cycles[C2_COLUMNS];	/* test 2: one kmalloc/kfree pair */
};

static const struct c2_pair c2_test2[] = {
	{ 8, { 98, 90, 94 } }, { 64, { 99, 90, 94 } }, { 512, { 105, 94, 97 } },
	{ 2048, { 107, 95, 95 } }, { 4096, { 111, 92, 97 } }, { 8192, { 111, 94, 631 } },
	{ 16384, { 114, 92, 741 } },
};

/* C2's cell of column p->column for test (1 or 2) and size. */
static bool c2_row(const struct wl_published *p, int test, int size, double *alloc,
		   double *free_)
{
	if (test == 1)
		for (size_t i = 0; i < ARRAY_SIZE(c2_test1); i++)
			if (c2_test1[i].size == size) {
				*alloc = c2_test1[i].cycles[p->column][0];
				*free_ = c2_test1[i].cycles[p->column][1];
				return true;
			}
	if (test == 2)
		for (size_t i = 0; i < ARRAY_SIZE(c2_test2); i++)
			if (c2_test2[i].size == size) {
				*alloc = c2_test2[i].cycles[p->column];
				*free_ = 0;
				return true;
			}
	return false;
}

static const struct wl_published c2_published[C2_COLUMNS] = {
	{ "C2 slab", c2_row, C2_SLAB },
	{ "C2 slqb", c2_row, C2_SLQB },
	{ "C2 slub", c2_row, C2_SLUB },
};

/* The workload's own lines, with `compare` the published figures of the
 * run's policy beside them (or a line saying there are none). */
void report_workload_print(FILE *out, const struct run *r, bool compare)
{
	if (!r->wl->print)
		return;
	const struct wl_published *pub = NULL;
	if (compare && !strcmp(r->wl->name, "slab_test"))
		for (int c = 0; c < C2_COLUMNS; c++)
			if (!strcmp(r->policy->name, c2_column[c]))
				pub = &c2_published[c];
	r->wl->print(r->wstate, out, pub);
	if (compare && !pub && !strcmp(r->wl->name, "slab_test"))
		fprintf(out, "(docs/calibration.md C2 has no figures for policy %s)\n",
			r->policy->name);
}
