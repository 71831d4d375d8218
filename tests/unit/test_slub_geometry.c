/* test_slub_geometry.c - SLUB's calculate_order/calculate_sizes and cache
 * merging against mm/slub.c of each era, and the geometry behind the
 * Tigerton slub_min_objects experiment (docs/calibration.md C1). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "run/run_core.h"

struct geom {
	const char *cache;
	unsigned int order, objects;
	const char *alias_of;	/* NULL: a cache of its own */
};

static struct run *build(const char **assign, int n)
{
	static struct run r;
	struct run_config cfg = { .machine = "tigerton", .policy = "slub", .seed = 1,
				  .assign = assign, .nassign = n };
	struct sim_err err;
	run_free(&r);
	if (run_configure(&r, &cfg, &err) < 0 || run_build(&r, &err) < 0) {
		printf("%s\n", err.msg);
		fail();
	}
	return &r;
}

static void expect(struct run *r, const struct geom *g, int n, const char *what)
{
	for (int i = 0; i < n; i++) {
		struct kmem_cache *c = NULL;
		for (int j = 0; j < r->k.ncaches; j++)
			if (!strcmp(r->k.caches[j]->name, g[i].cache))
				c = r->k.caches[j];
		if (!c) {
			printf("%s: no cache %s\n", what, g[i].cache);
			fail();
		}
		struct cache_info ci;
		r->k.policy->cache_info(r->k.pstate, c, &ci);
		const char *alias = c->alias ? c->alias->name : NULL;
		if (ci.order != g[i].order || ci.objs_per_slab != g[i].objects ||
		    (alias == NULL) != (g[i].alias_of == NULL) ||
		    (alias && strcmp(alias, g[i].alias_of))) {
			printf("%s: %s is order %u, %u objects%s%s; expected order %u, %u objects%s%s\n",
			       what, g[i].cache, ci.order, ci.objs_per_slab, alias ? ", alias of " : "",
			       alias ? alias : "", g[i].order, g[i].objects,
			       g[i].alias_of ? ", alias of " : "", g[i].alias_of ? g[i].alias_of : "");
			fail();
		}
	}
}

/* Orders of the kmalloc caches, 4 KB pages, by era (16 CPUs for 2.6.26). */
static void test_eras(void **state)
{
	(void)state;
	const char *k24[] = { "kernel=2.6.24" };
	const struct geom g24[] = {
		{ "kmalloc-8", 0, 512, NULL }, { "kmalloc-96", 0, 42, NULL },
		{ "kmalloc-192", 0, 21, NULL }, { "kmalloc-512", 0, 8, NULL },
		{ "kmalloc-1024", 0, 4, NULL }, { "kmalloc-2048", 1, 4, NULL },
	};
	struct run *r = build(k24, 1);
	expect(r, g24, 6, "2.6.24");
	for (int j = 0; j < r->k.ncaches; j++)	/* 2.6.24 serves kmalloc up to 2048 */
		assert_string_not_equal(r->k.caches[j]->name, "kmalloc-4096");
	assert_int_equal(r->k.lock_kind, LOCK_BYTE);

	const char *k25[] = { "kernel=2.6.25" };
	const struct geom g25[] = {
		{ "kmalloc-192", 0, 21, NULL }, { "kmalloc-512", 0, 8, NULL },
		{ "kmalloc-1024", 0, 4, NULL },
		{ "kmalloc-2048", 3, 16, NULL }, { "kmalloc-4096", 3, 8, NULL },
		{ "skbuff_head_cache", 0, 21, "kmalloc-192" },
	};
	r = build(k25, 1);
	expect(r, g25, 6, "2.6.25");
	assert_int_equal(r->k.lock_kind, LOCK_TICKET);

	const char *k26[] = { "kernel=2.6.26" };
	const struct geom g26[] = {
		{ "kmalloc-128", 0, 32, NULL }, { "kmalloc-192", 1, 42, NULL },
		{ "kmalloc-256", 1, 32, NULL }, { "kmalloc-512", 2, 32, NULL },
		{ "kmalloc-1024", 3, 32, NULL }, { "kmalloc-2048", 3, 16, NULL },
		{ "kmalloc-4096", 3, 8, NULL },
	};
	r = build(k26, 1);
	expect(r, g26, 7, "2.6.26");
	run_free(r);
}

/* The C1 settings on 2.6.25 with slub_max_order=3: the kmalloc special case
 * gives kmalloc-512 64 objects from 16 on, and from 32 on kmalloc-192 cannot
 * be merged with, so skbuff_head_cache gets slabs of its own. */
static void test_c1_geometry(void **state)
{
	(void)state;
	const char *m8[] = { "slub_min_objects=8", "slub_max_order=3" };
	const struct geom g8[] = {
		{ "kmalloc-512", 0, 8, NULL }, { "kmalloc-192", 0, 21, NULL },
		{ "skbuff_head_cache", 0, 21, "kmalloc-192" },
	};
	expect(build(m8, 2), g8, 3, "min 8");
	const char *m16[] = { "slub_min_objects=16", "slub_max_order=3" };
	const struct geom g16[] = {
		{ "kmalloc-512", 3, 64, NULL }, { "kmalloc-192", 0, 21, NULL },
		{ "skbuff_head_cache", 0, 21, "kmalloc-192" },
	};
	expect(build(m16, 2), g16, 3, "min 16");
	const char *m32[] = { "slub_min_objects=32", "slub_max_order=3" };
	const struct geom g32[] = {
		{ "kmalloc-512", 3, 64, NULL }, { "kmalloc-192", 3, 170, NULL },
		{ "skbuff_head_cache", 1, 42, NULL },
	};
	expect(build(m32, 2), g32, 3, "min 32");
	const char *m64[] = { "slub_min_objects=64", "slub_max_order=3" };
	const struct geom g64[] = {
		{ "kmalloc-512", 3, 64, NULL }, { "skbuff_head_cache", 2, 85, NULL },
	};
	expect(build(m64, 2), g64, 2, "min 64");
	/* without the 2.6.25 special case, calculate_order alone decides */
	const char *plain[] = { "slub_min_objects=16", "slub_max_order=3",
				"slub_kmalloc_fallback=0" };
	const struct geom gp[] = { { "kmalloc-512", 1, 16, NULL } };
	expect(build(plain, 3), gp, 1, "min 16 without the fallback");
	/* slub_nomerge keeps skbuff_head_cache apart */
	const char *nm[] = { "slub_nomerge=1" };
	const struct geom gn[] = { { "skbuff_head_cache", 0, 21, NULL } };
	struct run *r = build(nm, 1);
	expect(r, gn, 1, "nomerge");
	run_free(r);
}

static void test_bad_orders(void **state)
{
	(void)state;
	static struct run r;
	const char *bad[] = { "slub_min_order=4", "slub_max_order=2" };
	struct run_config cfg = { .machine = "tigerton", .policy = "slub", .seed = 1,
				  .assign = bad, .nassign = 2 };
	struct sim_err err;
	assert_int_equal(run_configure(&r, &cfg, &err), 0);
	assert_int_equal(run_build(&r, &err), -1);
	assert_non_null(strstr(err.msg, "slub_min_order"));
	run_free(&r);
}

int main(void)
{
	setenv("SLABSIM_MACHINES", "machines", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eras),
		cmocka_unit_test(test_c1_geometry),
		cmocka_unit_test(test_bad_orders),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
