/* slab_test_report.c - the slab_test module's output, line for line, and
 * the published figures the layer above hands it beside each line. */
#include "slab_test.h"

static const char *const concurrent_name[] = {
	[3] = "Kmalloc N*alloc N*free", [4] = "N*remote free", [5] = "1 alloc N free",
};

const char *slab_test_name(const struct st_result *r)
{
	return r->pairs ? "Kmalloc N*(alloc free)" : concurrent_name[r->test];
}

void slab_test_print(FILE *out, const struct st_result *res, int nres, int ncpus, int count,
		     const struct wl_published *pub)
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
		bool have = pub && pub->row(pub, r->test, r->size, &a, &f);
		if (r->test == 1) {
			fprintf(out, "%d times kmalloc(%d) -> %.0f cycles kfree -> %.0f cycles",
				count, r->size, r->alloc_cycles, r->free_cycles);
			if (have)
				fprintf(out, "   [%s: %.0f / %.0f]", pub->label, a, f);
		} else if (r->test == 2) {
			fprintf(out, "%d times kmalloc(%d)/kfree -> %.0f cycles", count, r->size,
				r->alloc_cycles);
			if (have)
				fprintf(out, "   [%s: %.0f]", pub->label, a);
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
}
