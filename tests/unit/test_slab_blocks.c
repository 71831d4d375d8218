/* test_slab_blocks.c - the policy building blocks (policies/slab_blocks.h):
 * a batch taken and given back under the node's lock, slabs grown,
 * listed full or partial and freed beyond `keep`, the registry, per-CPU
 * arrays, and the standard check with one message per kind of fault. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "policies/policy.h"
#include "run/run_core.h"

static struct run r;
static bool done;

/* The kernel's books of n objects handed out (or back). */
static void set_live(struct sb_cache *sc, const kaddr_t *objs, int n, bool live)
{
	sc->kc->live = live ? (uint64_t)n : 0;
	for (int i = 0; i < n; i++) {
		struct page *page = virt_to_head_page(&sc->k->pa, objs[i]);
		page->obj[slab_obj_index(sc->kc, page, objs[i])].live = live;
	}
}

/* The check with objs[from..to) held: 0, or -1 with the message in err. */
static int check(struct sb_cache *sc, const kaddr_t *objs, int from, int to, struct sim_err *err)
{
	if (sb_check_begin(sc, err) < 0)
		return -1;
	for (int i = from; i < to; i++)
		if (sb_check_held(sc, objs[i], "the test's array", err) < 0)
			return -1;
	return sb_check_end(sc, "the test's array", err);
}

/* An array's own line, as SLAB's array_cache: each get and put writes it
 * (another CPU's write takes it away, and the next use pays to get it
 * back); transfers move the newest, a drop the oldest. `a` is empty and
 * holds 8. */
static void test_array_line(struct kernel *k, struct sim_cpu *cpu, struct sb_cache *sc,
			    struct sb_array *a)
{
	kaddr_t objs[8];
	assert_int_equal(sb_get_objects(sc, cpu, 0, objs, 8), 8);
	assert_true(sb_array_put(k->hw, cpu, a, objs[0]));
	assert_int_equal(a->line.owner, cpu->id);	/* the put wrote it */
	hw_line_init(k->hw, &a->line, 0);		/* as if another CPU had it */
	uint64_t before = cpu->clock;
	assert_true(sb_array_get(k->hw, cpu, a) == objs[0]);
	assert_true(cpu->clock > before);		/* a miss: the line from memory */
	assert_int_equal(a->line.owner, cpu->id);
	before = cpu->clock;
	assert_true(sb_array_get(k->hw, cpu, a) == 0);	/* empty, and the line a hit */
	assert_true(cpu->clock == before);
	sb_array_append(a, objs, 8);
	assert_true(sb_array_full(a));
	assert_false(sb_array_put(k->hw, cpu, a, objs[0]));	/* full: nothing pushed */
	assert_int_equal(a->avail, 8);
	struct sb_array b;
	assert_int_equal(sb_array_init(&b, k->hw, 0, 3), 0);
	assert_int_equal(sb_array_transfer(&b, a, 5), 3);	/* b's room bounds it */
	assert_true(b.obj[0] == objs[5] && b.obj[2] == objs[7]);	/* the newest, in order */
	assert_int_equal(a->avail, 5);
	sb_array_drop_oldest(a, 2);
	assert_true(a->obj[0] == objs[2] && a->avail == 3);
	sb_array_append(a, b.obj, b.avail);
	sb_put_objects(sc, cpu, a->obj, a->avail);
	sb_put_objects(sc, cpu, objs, 2);
	a->avail = 0;
	sb_array_destroy(&b);
}

static void body(struct task *t, void *arg)
{
	(void)arg;
	struct kernel *k = t->k;
	struct sim_cpu *cpu = task_cpu(t);
	struct sim_err err;
	struct kmem_cache kc = { .name = "blocks-256", .object_size = 256, .align = 8 };
	struct sb_costs costs;
	struct sb_cache sc;
	assert_int_equal(sb_costs_lookup(k, &costs, &err), 0);
	assert_int_equal(sb_order(256, 8, 3), 0);	/* 16 objects in a page */
	assert_int_equal(sb_order(1000, 8, 3), 1);	/* 8 of 1000 need two pages */
	assert_int_equal(sb_cache_init(&sc, k, &kc, "blocks", 256, 0, 1, &costs, &err), 0);
	kc.reciprocal_size = (uint32_t)(((1ull << 32) + kc.size - 1) / kc.size);
	assert_string_equal(sc.lock_name, "&n->list_lock [blocks-256]");

	/* 40 objects under one lock acquisition: two full slabs and a partial */
	uint64_t acq = sc.lock_class.acquisitions;
	kaddr_t objs[40];
	assert_int_equal(sb_get_objects(&sc, cpu, 0, objs, 40), 40);
	assert_int_equal(sc.nall, 3);
	assert_int_equal(sc.node[0].nr_full, 2);
	assert_int_equal(sc.node[0].nr_partial, 1);
	assert_int_equal(sc.node[0].nr_free, 0);
	assert_true(sc.lock_class.acquisitions - acq <= 4);	/* dropped while growing */
	for (int i = 0; i < 40; i++)
		for (int j = 0; j < i; j++)
			assert_true(objs[i] != objs[j]);
	set_live(&sc, objs, 30, true);	/* the kernel's books: 30 handed out */
	assert_int_equal(check(&sc, objs, 30, 40, &err), 0);

	/* one message per kind of fault */
	assert_int_equal(check(&sc, objs, 29, 40, &err), -1);	/* a live object held */
	assert_non_null(strstr(err.msg, "an object in use"));
	assert_int_equal(check(&sc, objs, 31, 40, &err), -1);	/* an object lost */
	assert_non_null(strstr(err.msg, "inuse = "));
	sc.node[0].nr_partial++;
	assert_int_equal(check(&sc, objs, 30, 40, &err), -1);
	assert_non_null(strstr(err.msg, "its nr_partial says 2"));
	sc.node[0].nr_partial--;
	struct page *full = list_first_entry(&sc.node[0].full, struct page, lru);
	list_move(&full->lru, &sc.node[0].partial);	/* a full slab on partial */
	sc.node[0].nr_full--, sc.node[0].nr_partial++;
	assert_int_equal(check(&sc, objs, 30, 40, &err), -1);
	assert_non_null(strstr(err.msg, "partial list but full"));
	list_del(&full->lru);				/* a slab on no list */
	sc.node[0].nr_partial--;
	assert_int_equal(check(&sc, objs, 30, 40, &err), -1);
	assert_non_null(strstr(err.msg, "registry holds 3"));
	list_add(&full->lru, &sc.node[0].full);
	sc.node[0].nr_full++;
	assert_int_equal(check(&sc, objs, 30, 40, &err), 0);

	/* an array: refill, flush of the oldest, empty and full */
	struct sb_array a;
	assert_int_equal(sb_array_init(&a, k->hw, 0, 8), 0);
	assert_int_equal(sb_array_refill(&sc, cpu, &a, 0, 100), 8);	/* at most its room */
	assert_true(sb_array_full(&a));
	kaddr_t newest = a.obj[7];
	sb_array_flush(&sc, cpu, &a, 3);
	assert_int_equal(a.avail, 5);
	assert_true(a.obj[4] == newest);	/* the oldest went back */
	assert_true(sb_array_pop(&a) == newest);
	sb_array_push(&a, newest);
	sb_array_flush(&sc, cpu, &a, a.avail);
	assert_true(sb_array_empty(&a));
	test_array_line(k, cpu, &sc, &a);
	sb_array_destroy(&a);

	/* everything back: the empty slabs beyond keep=1 go to the page allocator */
	set_live(&sc, objs, 30, false);
	sb_put_objects(&sc, cpu, objs, 40);
	assert_int_equal(sc.nall, 1);
	assert_int_equal(sc.node[0].nr_free, 1);
	assert_int_equal(sc.slabs_freed, 2);
	assert_int_equal(check(&sc, objs, 0, 0, &err), 0);
	struct cache_info ci = { 0 };
	sb_cache_info(&sc, &ci);
	assert_int_equal(ci.slabs, 1);
	assert_int_equal(ci.partial, 1);
	assert_int_equal(ci.objs_per_slab, 16);
	struct page *last = list_first_entry(&sc.node[0].partial, struct page, lru);
	list_del(&last->lru);
	sb_free_slab(&sc, cpu, last);
	assert_int_equal(page_alloc_check(&k->pa, &err), 0);
	sb_cache_destroy(&sc);
	done = true;
}

static void test_blocks(void **state)
{
	(void)state;
	struct run_config cfg = { .machine = "tigerton", .policy = "slub", .seed = 1 };
	struct sim_err err;
	assert_int_equal(run_configure(&r, &cfg, &err), 0);
	assert_int_equal(run_build(&r, &err), 0);
	task_create(&r.k.sched, NULL, body, NULL, "test", NULL, 0);
	engine_run(&r.eng);
	assert_true(done);
	run_free(&r);
}

int main(void)
{
	setenv("SLABSIM_MACHINES", "machines", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blocks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
