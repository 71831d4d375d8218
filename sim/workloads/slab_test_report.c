/* slab_test_report.c - the slab_test module's output, line for line, and
 * the published single-thread figures beside it (docs/calibration.md C2: Nick
 * Piggin, "SLQB slab allocator", LKML, 16 Jan 2009; x86-64, cycles). */
#include <string.h>

#include "slab_test.h"
#include "engine/array_size.h"

struct c2_row {
	int size;
	double slab[2], slqb[2], slub[2];	/* test 1: alloc, free */
};

static const struct c2_row c2_test1[] = {
	{ 8, { 77, 128 }, { 69, 47 }, { 61, 77 } },
	{ 16, { 69, 104 }, { 116, 70 }, { 77, 80 } },
	{ 32, { 66, 101 }, { 82, 81 }, { 71, 89 } },
	{ 64, { 82, 116 }, { 95, 81 }, { 94, 105 } },
	{ 128, { 100, 148 }, { 106, 94 }, { 114, 163 } },
	{ 256, { 153, 136 }, { 134, 98 }, { 124, 186 } },
	{ 512, { 209, 161 }, { 170, 186 }, { 134, 276 } },
	{ 1024, { 331, 249 }, { 236, 245 }, { 134, 283 } },
	{ 2048, { 608, 443 }, { 380, 386 }, { 172, 312 } },
	{ 4096, { 1109, 624 }, { 678, 661 }, { 239, 372 } },
	{ 8192, { 1166, 1077 }, { 767, 683 }, { 535, 433 } },
	{ 16384, { 1213, 1160 }, { 914, 731 }, { 577, 682 } },
};

struct c2_pair {
	int size;
	double slab, slqb, slub;	/* test 2: one kmalloc/kfree pair */
};

static const struct c2_pair c2_test2[] = {
	{ 8, 98, 90, 94 }, { 64, 99, 90, 94 }, { 512, 105, 94, 97 }, { 2048, 107, 95, 95 },
	{ 4096, 111, 92, 97 }, { 8192, 111, 94, 631 }, { 16384, 114, 92, 741 },
};

bool slab_test_c2(const char *policy, int test, int size, double *alloc, double *free_)
{
	int p = !strcmp(policy, "slab") ? 0 : !strcmp(policy, "slqb") ? 1
		: !strcmp(policy, "slub") ? 2 : -1;
	if (p < 0)
		return false;
	if (test == 1)
		for (size_t i = 0; i < ARRAY_SIZE(c2_test1); i++)
			if (c2_test1[i].size == size) {
				const double *v = p == 0 ? c2_test1[i].slab
					: p == 1 ? c2_test1[i].slqb : c2_test1[i].slub;
				*alloc = v[0];
				*free_ = v[1];
				return true;
			}
	if (test == 2)
		for (size_t i = 0; i < ARRAY_SIZE(c2_test2); i++)
			if (c2_test2[i].size == size) {
				*alloc = p == 0 ? c2_test2[i].slab : p == 1 ? c2_test2[i].slqb
					: c2_test2[i].slub;
				*free_ = 0;
				return true;
			}
	return false;
}

static const char *const concurrent_name[] = {
	[3] = "Kmalloc N*alloc N*free", [4] = "N*remote free", [5] = "1 alloc N free",
};

const char *slab_test_name(const struct st_result *r)
{
	return r->pairs ? "Kmalloc N*(alloc free)" : concurrent_name[r->test];
}

void slab_test_print(FILE *out, const struct st_result *res, int nres, int ncpus, int count,
		     bool compare, const char *policy)
{
	int last = 0;
	for (int i = 0; i < nres; i++) {
		const struct st_result *r = &res[i];
		if (r->test != last) {
			static const char *const title[] = {
				"", "1. Kmalloc: Repeatedly allocate then free test",
				"2. Kmalloc: alloc/free test", "3. Concurrent allocs",
				"4. Remote free test", "5. 1 alloc N free test",
			};
			if (r->test == 1 || (r->test == 2 && last != 1))
				fprintf(out, "Single thread testing\n=====================\n");
			fprintf(out, "%s\n", title[r->test]);
			last = r->test;
		}
		double a, f;
		bool have = compare && slab_test_c2(policy, r->test, r->size, &a, &f);
		if (r->test == 1) {
			fprintf(out, "%d times kmalloc(%d) -> %.0f cycles kfree -> %.0f cycles",
				count, r->size, r->alloc_cycles, r->free_cycles);
			if (have)
				fprintf(out, "   [C2 %s: %.0f / %.0f]", policy, a, f);
		} else if (r->test == 2) {
			fprintf(out, "%d times kmalloc(%d)/kfree -> %.0f cycles", count, r->size,
				r->alloc_cycles);
			if (have)
				fprintf(out, "   [C2 %s: %.0f]", policy, a);
		} else if (r->pairs || r->test == 5) {	/* no phase 2: one figure */
			fprintf(out, "%s(%d):", slab_test_name(r), r->size);
			for (int c = 0; c < ncpus; c++)
				fprintf(out, " %d=%.0f", c, r->per_cpu[2 * c]);
			fprintf(out, " Average=%.0f", r->alloc_cycles);
		} else {
			fprintf(out, "%s(%d):", slab_test_name(r), r->size);
			for (int c = 0; c < ncpus; c++)
				fprintf(out, " %d=%.0f/%.0f", c, r->per_cpu[2 * c], r->per_cpu[2 * c + 1]);
			fprintf(out, " Average=%.0f/%.0f", r->alloc_cycles, r->free_cycles);
		}
		fprintf(out, "\n");
	}
	if (compare && strcmp(policy, "slab") && strcmp(policy, "slqb") && strcmp(policy, "slub"))
		fprintf(out, "(docs/calibration.md C2 has no figures for policy %s)\n", policy);
}
