/* test_policy_tunables.c - each policy's per-cache geometry and tunables
 * against the kernel's own formulas, worked by hand in the comments: SLUB
 * 3.2 (calculate_order, min_partial, cpu_partial), 3.1, 3.0 and 2.6.25 (the
 * geometry of 2.6.24-2.6.26 is test_slub_geometry.c's), SLAB's
 * enable_cpucache() and SLQB's freebatch/hiwater; then the parameters that
 * override them: cpu_partial, cpu_partial_caches (merged names too),
 * slab_limit/slab_batchcount/slab_shared, slab_tunables (per cache),
 * slqb_freebatch/slqb_hiwater. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "run/run_core.h"

static struct run the_run;

static struct run *build(const char *machine, const char *policy, const char **assign, int n)
{
	struct run_config cfg = { .machine = machine, .policy = policy, .seed = 1,
				  .assign = assign, .nassign = n };
	struct sim_err err;
	run_free(&the_run);
	if (run_configure(&the_run, &cfg, &err) < 0 || run_build(&the_run, &err) < 0) {
		printf("%s %s: %s\n", machine, policy, err.msg);
		fail();
	}
	return &the_run;
}

static struct kmem_cache *cache(struct run *r, const char *name)
{
	for (int j = 0; j < r->k.ncaches; j++)
		if (!strcmp(r->k.caches[j]->name, name))
			return r->k.caches[j];
	printf("no cache %s\n", name);
	fail();
	return NULL;
}

/* The geometry of a cache (an alias reports its target's). */
static void geometry(struct run *r, const char *name, unsigned int *order, unsigned int *objs)
{
	struct cache_info ci;
	r->k.policy->cache_info(r->k.pstate, cache(r, name), &ci);
	*order = ci.order;
	*objs = ci.objs_per_slab;
}

/* A tunable as `show policy` prints it: an alias shows its target's. */
static uint64_t tunable(struct run *r, const char *name, const char *tun)
{
	struct kmem_cache *c = cache(r, name);
	struct cache_info ci;
	r->k.policy->cache_info(r->k.pstate, c->alias ? c->alias : c, &ci);
	for (int t = 0; t < ci.ntunables; t++)
		if (!strcmp(ci.tunables[t].name, tun))
			return ci.tunables[t].value;
	printf("cache %s has no tunable %s\n", name, tun);
	fail();
	return 0;
}

static void expect_tunable(struct run *r, const char *what, const char *name, const char *tun,
			   uint64_t want)
{
	uint64_t got = tunable(r, name, tun);
	if (got != want) {
		printf("%s: %s %s = %llu, expected %llu\n", what, name, tun,
		       (unsigned long long)got, (unsigned long long)want);
		fail();
	}
}

static void expect_geometry(struct run *r, const char *what, const char *name,
			    unsigned int order, unsigned int objs)
{
	unsigned int o, n;
	geometry(r, name, &o, &n);
	if (o != order || n != objs) {
		printf("%s: %s is order %u with %u objects, expected order %u with %u\n", what,
		       name, o, n, order, objs);
		fail();
	}
}

/* --- SLUB --- */

struct slub_row {
	const char *cache;
	unsigned int order, objects;
	uint64_t min_partial, cpu_partial;
};

static void expect_slub(struct run *r, const char *what, const struct slub_row *t, int n)
{
	for (int i = 0; i < n; i++) {
		expect_geometry(r, what, t[i].cache, t[i].order, t[i].objects);
		expect_tunable(r, what, t[i].cache, "min_partial", t[i].min_partial);
		expect_tunable(r, what, t[i].cache, "cpu_partial", t[i].cpu_partial);
	}
}

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* 3.2 on tigerton (16 CPUs). calculate_order: min_objects = 4 * (fls(16) + 1)
 * = 24, capped by what slub_max_order 3 holds (32768 / size), each order from
 * fls(min_objects * size - 1) - 12, waste fractions 16, 8, 4, then
 * min_objects--. min_partial = ilog2(size) / 2 in [5, 10]; cpu_partial:
 * size >= 4096: 2, >= 1024: 6, >= 256: 13, else 30. */
static void test_slub_32(void **state)
{
	(void)state;
	const char *k32[] = { "kernel=3.2" };
	const struct slub_row t[] = {
		/* 24*8 = 192: order 0, 4096/8 = 512; ilog2 3 / 2 = 1 -> 5; < 256: 30 */
		{ "kmalloc-8", 0, 512, 5, 30 },
		/* 24*96 = 2304: order 0, 42 (waste 64 <= 4096/16); ilog2 6 -> 3 -> 5 */
		{ "kmalloc-96", 0, 42, 5, 30 },
		/* 24*192 = 4608: fls(4607) = 13 -> order 1, 8192/192 = 42 (waste
		 * 128 <= 512); ilog2 7 -> 3 -> 5; 192 < 256: 30 */
		{ "kmalloc-192", 1, 42, 5, 30 },
		/* merged into kmalloc-192 (184 aligned to 64 = 192): its numbers */
		{ "skbuff_head_cache", 1, 42, 5, 30 },
		/* 24*256 = 6144: order 1, 32; ilog2 8 -> 4 -> 5; >= 256: 13 */
		{ "kmalloc-256", 1, 32, 5, 13 },
		/* 24*512 = 12288: fls(12287) = 14 -> order 2, 32; 9 -> 4 -> 5; 13 */
		{ "kmalloc-512", 2, 32, 5, 13 },
		/* 24*1024 = 24576: order 3, 32; ilog2 10 -> 5; >= 1024: 6 */
		{ "kmalloc-1024", 3, 32, 5, 6 },
		/* min_objects capped at 32768/2048 = 16: order 3, 16; 11 -> 5; 6 */
		{ "kmalloc-2048", 3, 16, 5, 6 },
		/* capped at 8: order 3, 8; ilog2 12 -> 6; >= PAGE_SIZE: 2 */
		{ "kmalloc-4096", 3, 8, 6, 2 },
	};
	expect_slub(build("tigerton", "slub", k32, 1), "3.2 tigerton", t, N(t));

	/* The order scales with the CPUs. core2-ep, 8 CPUs: min_objects =
	 * 4 * (4 + 1) = 20; 20*192 = 3840 -> order 0, 21 (waste 64 <= 256). */
	const struct slub_row c2[] = {
		{ "kmalloc-192", 0, 21, 5, 30 },
		{ "kmalloc-512", 2, 32, 5, 13 },	/* 10240: fls 14 -> order 2 */
	};
	expect_slub(build("core2-ep", "slub", k32, 1), "3.2 core2-ep", c2, N(c2));
	/* epyc-genoa-2s, 384 CPUs: min_objects = 4 * (fls(384) + 1) = 40 */
	const struct slub_row ep[] = {
		{ "kmalloc-128", 1, 64, 5, 30 },	/* 5120: fls 13 -> order 1, 64 */
		{ "kmalloc-256", 2, 64, 5, 13 },	/* 10240: fls 14 -> order 2, 64 */
		{ "kmalloc-512", 3, 64, 5, 13 },	/* 20480: fls 15 -> order 3, 64 */
		{ "kmalloc-1024", 3, 32, 5, 6 },	/* capped at 32: order 3 */
	};
	expect_slub(build("epyc-genoa-2s", "slub", k32, 1), "3.2 epyc", ep, N(ep));
	run_free(&the_run);
}

/* 3.1: the same calculate_order, no per-CPU partial lists (cpu_partial 0),
 * and kmem_cache_open() sets min_partial = ilog2(size) in [5, 10] (the
 * halving came with 3.2). */
static void test_slub_31(void **state)
{
	(void)state;
	const char *k31[] = { "kernel=3.1" };
	const struct slub_row t[] = {
		{ "kmalloc-8", 0, 512, 5, 0 },		/* ilog2 3 -> 5 */
		{ "kmalloc-64", 0, 64, 6, 0 },		/* ilog2 6 */
		{ "kmalloc-128", 0, 32, 7, 0 },		/* 24*128 = 3072: order 0; 7 */
		{ "kmalloc-192", 1, 42, 7, 0 },		/* ilog2 7 */
		{ "kmalloc-512", 2, 32, 9, 0 },		/* ilog2 9 */
		{ "kmalloc-1024", 3, 32, 10, 0 },	/* ilog2 10 */
		{ "kmalloc-4096", 3, 8, 10, 0 },	/* ilog2 12 -> 10 */
	};
	expect_slub(build("tigerton", "slub", k31, 1), "3.1", t, N(t));
	/* the switch alone gives 3.1 the 3.2 per-CPU partial lists */
	const char *pcp[] = { "kernel=3.1", "slub_percpu_partial=1" };
	const struct slub_row p[] = {
		{ "kmalloc-64", 0, 64, 6, 30 }, { "kmalloc-512", 2, 32, 9, 13 },
		{ "kmalloc-2048", 3, 16, 10, 6 }, { "kmalloc-4096", 3, 8, 10, 2 },
	};
	expect_slub(build("tigerton", "slub", pcp, 2), "3.1 percpu_partial", p, N(p));
	run_free(&the_run);
}

/* 3.0: 3.1's calculate_order and min_partial (both already in 2.6.31's
 * mm/slub.c), no per-CPU partial lists, and 2.6.2x's slow paths: the
 * page's slab_lock in __slab_free and get_partial_node, and a CPU slab
 * given up with hot objects put at the partial list's head
 * (deactivate_slab's tail = 0). */
static void test_slub_30(void **state)
{
	(void)state;
	const char *k30[] = { "kernel=3.0" };
	const struct slub_row t[] = {
		{ "kmalloc-8", 0, 512, 5, 0 },		/* ilog2 3 -> 5 */
		{ "kmalloc-128", 0, 32, 7, 0 },		/* 24*128 = 3072: order 0; 7 */
		{ "kmalloc-192", 1, 42, 7, 0 },		/* ilog2 7 */
		{ "kmalloc-512", 2, 32, 9, 0 },		/* 24*512 = 12288: order 2; 9 */
		{ "kmalloc-4096", 3, 8, 10, 0 },	/* ilog2 12 -> 10 */
	};
	struct run *r = build("tigerton", "slub", k30, 1);
	expect_slub(r, "3.0", t, N(t));
	assert_false(param_bool(&r->pparams, "slub_lockless"));
	assert_true(param_bool(&r->pparams, "slub_deactivate_hot_head"));
	assert_false(param_bool(&r->pparams, "slub_percpu_partial"));
	assert_string_equal(param_str(&r->kparams, "spinlock"), "ticket");
	const char *k31[] = { "kernel=3.1" };
	r = build("tigerton", "slub", k31, 1);
	assert_true(param_bool(&r->pparams, "slub_lockless"));
	assert_false(param_bool(&r->pparams, "slub_deactivate_hot_head"));
	run_free(&the_run);
}

/* 2.6.25: MIN_PARTIAL (5) for every cache, no cpu_partial; the sizes that
 * test_slub_geometry.c leaves out (slub_min_objects 4, slub_max_order 1,
 * waste fraction 8 then 4). */
static void test_slub_2625(void **state)
{
	(void)state;
	const char *k25[] = { "kernel=2.6.25" };
	const struct slub_row t[] = {
		{ "kmalloc-8", 0, 512, 5, 0 },	/* 4*8 = 32: order 0 */
		{ "kmalloc-96", 0, 42, 5, 0 },	/* 384: order 0, waste 64 <= 512 */
		{ "kmalloc-256", 0, 16, 5, 0 },	/* 1024: order 0, no waste */
		{ "kmalloc-512", 0, 8, 5, 0 },
		{ "kmalloc-4096", 3, 8, 5, 0 },	/* kmalloc special case: order 3 */
	};
	expect_slub(build("tigerton", "slub", k25, 1), "2.6.25", t, N(t));
	run_free(&the_run);
}

/* cpu_partial sets every cache; cpu_partial_caches only the caches it
 * names (a merged name: the cache it shares), the later pair winning. */
static void test_cpu_partial_params(void **state)
{
	(void)state;
	const char *names[] = { "kmalloc-8", "kmalloc-96", "kmalloc-192", "kmalloc-256",
				"kmalloc-512", "kmalloc-1024", "kmalloc-2048", "kmalloc-4096",
				"skbuff_head_cache" };
	const uint64_t dflt[] = { 30, 30, 30, 13, 13, 6, 6, 2, 30 };
	const char *g[] = { "kernel=3.2", "cpu_partial=50" };
	struct run *r = build("tigerton", "slub", g, 2);
	for (int i = 0; i < N(names); i++) {
		expect_tunable(r, "cpu_partial=50", names[i], "cpu_partial", 50);
		expect_tunable(r, "cpu_partial=50", names[i], "min_partial",
			       !strcmp(names[i], "kmalloc-4096") ? 6 : 5);
	}
	const char *z[] = { "kernel=3.2", "cpu_partial=0" };
	r = build("tigerton", "slub", z, 2);
	for (int i = 0; i < N(names); i++)
		expect_tunable(r, "cpu_partial=0", names[i], "cpu_partial", 0);

	const char *one[] = { "kernel=3.2", "cpu_partial_caches=kmalloc-512:7" };
	r = build("tigerton", "slub", one, 2);
	for (int i = 0; i < N(names); i++)
		expect_tunable(r, "kmalloc-512:7", names[i], "cpu_partial",
			       !strcmp(names[i], "kmalloc-512") ? 7 : dflt[i]);

	const char *both[] = { "kernel=3.2", "cpu_partial=50",
			       "cpu_partial_caches=kmalloc-512:7,kmalloc-8:0" };
	r = build("tigerton", "slub", both, 3);
	for (int i = 0; i < N(names); i++)
		expect_tunable(r, "50 and kmalloc-512:7,kmalloc-8:0", names[i], "cpu_partial",
			       !strcmp(names[i], "kmalloc-512") ? 7
			       : !strcmp(names[i], "kmalloc-8") ? 0 : 50);

	/* skbuff_head_cache is merged into kmalloc-192: setting it sets both */
	const char *al[] = { "kernel=3.2", "cpu_partial_caches=skbuff_head_cache:7" };
	r = build("tigerton", "slub", al, 2);
	expect_tunable(r, "alias", "kmalloc-192", "cpu_partial", 7);
	expect_tunable(r, "alias", "skbuff_head_cache", "cpu_partial", 7);
	expect_tunable(r, "alias", "kmalloc-256", "cpu_partial", 13);
	const char *al2[] = { "kernel=3.2",
			      "cpu_partial_caches=skbuff_head_cache:7,kmalloc-192:5" };
	r = build("tigerton", "slub", al2, 2);
	expect_tunable(r, "later pair", "skbuff_head_cache", "cpu_partial", 5);
	run_free(&the_run);
}

/* --- SLAB --- */

struct slab_row {
	const char *cache;
	uint64_t limit, batchcount, shared;
};

static void expect_slab(struct run *r, const char *what, const struct slab_row *t, int n)
{
	for (int i = 0; i < n; i++) {
		expect_tunable(r, what, t[i].cache, "limit", t[i].limit);
		expect_tunable(r, what, t[i].cache, "batchcount", t[i].batchcount);
		expect_tunable(r, what, t[i].cache, "shared", t[i].shared);
	}
}

/* enable_cpucache() of mm/slab.c (2.6.25): limit by buffer_size: > 131072:
 * 1, > PAGE_SIZE: 8, > 1024: 24, > 256: 54, else 120; batchcount = (limit +
 * 1) / 2; shared = 8 for buffer_size <= PAGE_SIZE on SMP (tigerton: 16). */
static void test_slab(void **state)
{
	(void)state;
	const struct slab_row t[] = {
		{ "kmalloc-32", 120, 60, 8 },
		{ "kmalloc-256", 120, 60, 8 },		/* 256 is not > 256 */
		{ "skbuff_head_cache", 120, 60, 8 },	/* 192 */
		{ "kmalloc-512", 54, 27, 8 },
		{ "kmalloc-1024", 54, 27, 8 },		/* 1024 is not > 1024 */
		{ "kmalloc-2048", 24, 12, 8 },
		{ "kmalloc-4096", 24, 12, 8 },		/* <= PAGE_SIZE: shared */
		{ "kmalloc-8192", 8, 4, 0 },		/* > PAGE_SIZE: no shared array */
		{ "kmalloc-131072", 8, 4, 0 },		/* 131072 is not > 131072 */
		{ "kmalloc-262144", 1, 1, 0 },
	};
	expect_slab(build("tigerton", "slab", NULL, 0), "SLAB defaults", t, N(t));

	/* slab_limit: every cache's limit, batchcount (limit + 1) / 2 */
	const char *lim[] = { "slab_limit=100" };
	const struct slab_row tl[] = {
		{ "kmalloc-32", 100, 50, 8 }, { "kmalloc-512", 100, 50, 8 },
		{ "kmalloc-8192", 100, 50, 0 }, { "kmalloc-262144", 100, 50, 0 },
	};
	expect_slab(build("tigerton", "slab", lim, 1), "slab_limit=100", tl, N(tl));
	/* slab_batchcount: every cache's, never above its limit */
	const char *bc[] = { "slab_batchcount=10" };
	const struct slab_row tb[] = {
		{ "kmalloc-32", 120, 10, 8 }, { "kmalloc-512", 54, 10, 8 },
		{ "kmalloc-8192", 8, 8, 0 }, { "kmalloc-262144", 1, 1, 0 },
	};
	expect_slab(build("tigerton", "slab", bc, 1), "slab_batchcount=10", tb, N(tb));
	/* slab_shared: every cache's factor, 0 turns the shared arrays off */
	const char *sh0[] = { "slab_shared=0" };
	const struct slab_row t0[] = { { "kmalloc-32", 120, 60, 0 }, { "kmalloc-512", 54, 27, 0 } };
	expect_slab(build("tigerton", "slab", sh0, 1), "slab_shared=0", t0, N(t0));
	const char *all[] = { "slab_limit=32", "slab_batchcount=16", "slab_shared=2" };
	const struct slab_row ta[] = {
		{ "kmalloc-32", 32, 16, 2 }, { "kmalloc-4096", 32, 16, 2 },
		{ "kmalloc-8192", 32, 16, 2 },
	};
	expect_slab(build("tigerton", "slab", all, 3), "all three", ta, N(ta));

	/* slab_tunables: one cache's "limit batchcount shared", as written to
	 * /proc/slabinfo; it wins over the global values, the last pair wins */
	const char *one[] = { "slab_tunables=kmalloc-512:120:60:4" };
	const struct slab_row t1[] = {
		{ "kmalloc-512", 120, 60, 4 }, { "kmalloc-256", 120, 60, 8 },
		{ "kmalloc-1024", 54, 27, 8 },
	};
	expect_slab(build("tigerton", "slab", one, 1), "slab_tunables", t1, N(t1));
	const char *mix[] = { "slab_limit=100", "slab_tunables=kmalloc-512:16:8:0,kmalloc-32:1:1:0" };
	const struct slab_row tm[] = {
		{ "kmalloc-512", 16, 8, 0 }, { "kmalloc-32", 1, 1, 0 },
		{ "kmalloc-256", 100, 50, 8 },
	};
	expect_slab(build("tigerton", "slab", mix, 2), "slab_limit and slab_tunables", tm, N(tm));
	const char *last[] = { "slab_tunables=kmalloc-512:16:8:0,kmalloc-512:32:16:2" };
	const struct slab_row tt[] = { { "kmalloc-512", 32, 16, 2 } };
	expect_slab(build("tigerton", "slab", last, 1), "last pair", tt, N(tt));
	run_free(&the_run);
}

/* --- SLQB --- */

struct slqb_row {
	const char *cache;
	unsigned int order, objects;
	uint64_t freebatch, hiwater;
};

static void expect_slqb(struct run *r, const char *what, const struct slqb_row *t, int n)
{
	for (int i = 0; i < n; i++) {
		expect_geometry(r, what, t[i].cache, t[i].order, t[i].objects);
		expect_tunable(r, what, t[i].cache, "freebatch", t[i].freebatch);
		expect_tunable(r, what, t[i].cache, "hiwater", t[i].hiwater);
	}
}

/* calculate_sizes() of mm/slqb.c: freebatch = max(4*PAGE_SIZE/size,
 * min(256, 64*PAGE_SIZE/size)), 1 if that is 0; hiwater = freebatch << 2.
 * calculate_order: up to order 1 with waste <= 1/4, else the order that fits. */
static void test_slqb(void **state)
{
	(void)state;
	const struct slqb_row t[] = {
		{ "kmalloc-8", 0, 512, 2048, 8192 },	/* max(2048, min(256, 32768)) */
		{ "kmalloc-64", 0, 64, 256, 1024 },	/* max(256, 256) */
		{ "kmalloc-128", 0, 32, 256, 1024 },	/* max(128, min(256, 2048)) */
		{ "kmalloc-192", 0, 21, 256, 1024 },	/* max(85, 256); waste 64 */
		{ "kmalloc-2048", 0, 2, 128, 512 },	/* max(8, min(256, 128)) */
		{ "kmalloc-4096", 0, 1, 64, 256 },	/* max(4, 64) */
		{ "kmalloc-8192", 1, 1, 32, 128 },	/* max(2, 32) */
		{ "kmalloc-16384", 2, 1, 16, 64 },	/* beyond order 1: fits at 2 */
		{ "kmalloc-262144", 6, 1, 1, 4 },	/* max(0, min(256, 1)) */
		{ "kmalloc-524288", 7, 1, 1, 4 },	/* max(0, 0) = 0 -> 1 */
	};
	expect_slqb(build("tigerton", "slqb", NULL, 0), "SLQB defaults", t, N(t));
	/* x86-64's 64-byte lines: no kmalloc-96 (sizes 72-96 use kmalloc-128) */
	for (int j = 0; j < the_run.k.ncaches; j++)
		assert_string_not_equal(the_run.k.caches[j]->name, "kmalloc-96");

	const char *fb[] = { "slqb_freebatch=10" };
	const struct slqb_row tf[] = {
		{ "kmalloc-8", 0, 512, 10, 40 }, { "kmalloc-4096", 0, 1, 10, 40 },
	};
	expect_slqb(build("tigerton", "slqb", fb, 1), "slqb_freebatch=10", tf, N(tf));
	const char *fh[] = { "slqb_freebatch=10", "slqb_hiwater=100" };
	const struct slqb_row th[] = {
		{ "kmalloc-8", 0, 512, 10, 100 }, { "kmalloc-512", 0, 8, 10, 100 },
	};
	expect_slqb(build("tigerton", "slqb", fh, 2), "hiwater=100", th, N(th));
	run_free(&the_run);

	/* a hiwater below the batch it flushes is refused */
	const char *bad[] = { "slqb_freebatch=10", "slqb_hiwater=5" };
	struct run_config cfg = { .machine = "tigerton", .policy = "slqb", .seed = 1,
				  .assign = bad, .nassign = 2 };
	struct sim_err err;
	assert_int_equal(run_configure(&the_run, &cfg, &err), 0);
	assert_int_equal(run_build(&the_run, &err), -1);
	assert_non_null(strstr(err.msg, "slqb_hiwater=5"));
	run_free(&the_run);
}

int main(void)
{
	setenv("SLABSIM_MACHINES", "machines", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slub_32),
		cmocka_unit_test(test_slub_31),
		cmocka_unit_test(test_slub_30),
		cmocka_unit_test(test_slub_2625),
		cmocka_unit_test(test_cpu_partial_params),
		cmocka_unit_test(test_slab),
		cmocka_unit_test(test_slqb),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
