/* test_slab_blocks.c - the policy building blocks (policies/slab_blocks.h):
 * a batch taken and given back under the node's lock, slabs grown,
 * listed full or partial and freed beyond `keep`, the registry, per-CPU
 * arrays and their line, the other layouts the built-ins keep (SLAB's free
 * list under its own lock name, the magazines' bins of one cache-wide
 * owner, SLUB's and SLQB's lists without a full one), the slab pieces, and
 * the standard check with one message per kind of fault. */
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

/* An array living in a slab object (a magazine, a sheaf): slot i is the
 * word `header` + 8 i bytes into the object, slot -1 its first word, each
 * touch that word's line (its last user the CPU), not an own line. */
static void test_array_in_object(struct kernel *k, struct sim_cpu *cpu, struct sb_cache *sc)
{
	kaddr_t obj;
	assert_int_equal(sb_get_objects(sc, cpu, 0, &obj, 1), 1);
	struct page *page = virt_to_head_page(&k->pa, obj);
	struct sb_array a;
	assert_int_equal(sb_array_init(&a, k->hw, 0, 15), 0);
	sb_array_in_object(&a, &k->pa, obj, 32);
	assert_true(a.page == page && a.addr == obj);
	uint64_t line = (obj + 32 + 7 * 8 - page_address(page)) >> 6;	/* slot 7's line */
	page->cl[line] = -1;
	sb_array_slot_touch(k->hw, cpu, &a, 7, true);
	assert_int_equal(page->cl[line], cpu->id);
	page->cl[(obj - page_address(page)) >> 6] = -1;	/* the header's */
	sb_array_slot_touch(k->hw, cpu, &a, -1, false);
	assert_int_equal(page->cl[(obj - page_address(page)) >> 6], cpu->id);
	assert_int_equal(a.line.owner, -1);		/* its own line untouched */
	sb_array_destroy(&a);
	assert_int_equal(sb_array_init(&a, k->hw, 0, 4), 0);	/* an own-line array */
	sb_array_slot_touch(k->hw, cpu, &a, 2, true);
	assert_int_equal(a.line.owner, cpu->id);
	sb_array_destroy(&a);
	sb_put_objects(sc, cpu, &obj, 1);
}

/* A depot's lists: stacks of arrays (the newest on top), counted, their
 * working set's low mark and takings following each pop, a ws update
 * making the low mark the reap limit, and the whole list taken at once. */
static void test_depot(struct kernel *k)
{
	static struct hw_lock_class cls;
	hw_lock_class_init(k->hw, &cls, "&test->depot_lock", k->hw->sym_spin_lock);
	struct sb_depot d;
	sb_depot_init(&d, k->hw, k->lock_kind, 0, &cls);
	assert_true(d.lock.cls == &cls && d.lock.line == &d.line);
	struct sb_array a[3];
	for (int i = 0; i < 3; i++) {
		assert_int_equal(sb_array_init(&a[i], k->hw, 0, 4), 0);
		sb_stack_push(&d.full, &a[i]);
	}
	assert_int_equal(d.full.total, 3);
	assert_int_equal(sb_stack_length(&d.full, 10), 3);
	sb_stack_ws_update(&d.full);			/* min = 3 */
	assert_true(sb_stack_pop(&d.full) == &a[2]);	/* the newest first */
	assert_true(sb_stack_pop(&d.full) == &a[1]);
	assert_int_equal(d.full.min, 1);
	assert_int_equal(d.full.taken, 2);
	sb_stack_push(&d.full, &a[1]);
	sb_stack_ws_update(&d.full);			/* the low mark 1 is the reap limit */
	assert_int_equal(d.full.reaplimit, 1);
	assert_int_equal(d.full.min, 2);
	assert_true(sb_stack_pop(&d.empty) == NULL);
	assert_true(sb_stack_take_all(&d.full) == &a[1] && a[1].next == &a[0] && !a[0].next);
	assert_int_equal(d.full.total, 0);
	assert_true(d.full.top == NULL && d.full.min == 0 && d.full.reaplimit == 0);
	for (int i = 0; i < 3; i++)
		sb_array_destroy(&a[i]);
}

/* A layout's cache of 256-byte objects (16 to a page). */
static void layout(struct sb_cache *sc, struct kernel *k, struct kmem_cache *kc,
		   const struct sb_params *p)
{
	struct sim_err err;
	assert_int_equal(sb_cache_setup(sc, k, kc, p, &err), 0);
	kc->reciprocal_size = (uint32_t)(((1ull << 32) + kc->size - 1) / kc->size);
	assert_int_equal(sc->objects, 16);
}

/* SLAB's layout, its owners embedded as kmem_list3 embeds them: empty
 * slabs on a free list of their own (kept there, taken after partial
 * ones), full ones on theirs, the lock and lists under SLAB's names. */
static void test_free_list(struct kernel *k, struct sim_cpu *cpu)
{
	struct { struct sb_node n; unsigned long extra; } l3;
	struct kmem_cache kc = { .name = "layout-slab", .object_size = 256, .align = 8 };
	const struct sb_params p = {
		.policy = "slab", .size = 256, .keep = 1,
		.flags = SB_FULL_LIST | SB_FREE_LIST | SB_OWN_NODES, .owners = 1,
		.lock_name = "&l3->list_lock [%s]",
		.list_name = { "slabs_partial", "slabs_full", "slabs_free" },
	};
	struct sb_cache sc;
	struct sim_err err;
	layout(&sc, k, &kc, &p);
	sb_node_init(&sc, 0, &l3.n, 0, "node 0");
	assert_string_equal(sc.lock_name, "&l3->list_lock [layout-slab]");
	assert_true(l3.n.list_lock.cls == &sc.lock_class);
	kaddr_t objs[20];
	assert_int_equal(sb_get_objects(&sc, cpu, 0, objs, 20), 20);
	assert_int_equal(l3.n.nr_full, 1);
	assert_int_equal(l3.n.nr_partial, 1);
	assert_int_equal(l3.n.nr_slabs, 2);
	sb_put_objects(&sc, cpu, objs + 16, 4);		/* the partial slab empties: kept free */
	assert_int_equal(l3.n.nr_partial, 0);
	assert_int_equal(l3.n.nr_free, 1);
	struct page *empty = sb_list_first(&sc, &l3.n, SB_FREE);
	assert_non_null(empty);
	assert_int_equal(empty->sb_list, SB_FREE);
	set_live(&sc, objs, 16, true);
	assert_int_equal(check(&sc, objs, 0, 0, &err), 0);
	sb_list_del(&sc, &l3.n, empty);			/* an empty slab on partial */
	sb_list_add(&sc, &l3.n, empty, SB_PARTIAL, false);
	assert_int_equal(check(&sc, objs, 0, 0, &err), -1);
	assert_non_null(strstr(err.msg, "slab layout-slab: slab pfn"));
	assert_non_null(strstr(err.msg, "is on node 0's slabs_partial list but empty (the free "
			       "list is for that)"));
	sb_list_del(&sc, &l3.n, empty);
	sb_list_add(&sc, &l3.n, empty, SB_FREE, true);
	l3.n.nr_free++;					/* a counter off */
	assert_int_equal(check(&sc, objs, 0, 0, &err), -1);
	assert_non_null(strstr(err.msg, "node 0's lists hold 1 empty slabs, its nr_free says 2"));
	l3.n.nr_free--;
	assert_int_equal(sb_get_objects(&sc, cpu, 0, objs + 16, 1), 1);	/* from the free slab */
	assert_int_equal(empty->sb_list, SB_PARTIAL);
	assert_int_equal(l3.n.nr_free, 0);
	assert_int_equal(sc.nall, 2);
	set_live(&sc, objs, 16, false);
	sb_put_objects(&sc, cpu, objs, 17);		/* the first empty kept free, the next freed */
	assert_int_equal(sc.nall, 1);
	assert_int_equal(check(&sc, objs, 0, 0, &err), 0);
	struct page *kept = sb_list_first(&sc, &l3.n, SB_FREE);
	assert_true(kept != empty && kept == virt_to_head_page(&k->pa, objs[0]));
	sb_list_del(&sc, &l3.n, kept);
	sb_free_slab(&sc, cpu, kept);
	sb_cache_destroy(&sc);
}

/* The magazines' layout: one owner for the whole cache (slabs of any
 * node), partial slabs in bins by fill with the fullest taken first, and
 * an empty slab freed at once. */
static void test_bins(struct kernel *k, struct sim_cpu *cpu)
{
	struct kmem_cache kc = { .name = "layout-bins", .object_size = 256, .align = 8 };
	const struct sb_params p = {
		.policy = "magazine", .size = 256, .flags = SB_FULL_LIST | SB_BINS | SB_NO_EMPTY,
		.bin_shift = 1, .owners = 1, .lock_name = "&cp->cache_lock [%s]",
		.list_name = { "partial", "complete", "free" },
	};
	struct sb_cache sc;
	struct sim_err err;
	layout(&sc, k, &kc, &p);
	struct sb_node *n = sc.node[0];
	assert_string_equal(n->name, "the cache");
	assert_int_equal(n->nid, -1);
	kaddr_t objs[21];
	assert_int_equal(sb_get_objects(&sc, cpu, 0, objs, 21), 21);	/* A full, B 5 in use */
	struct page *a = virt_to_head_page(&k->pa, objs[0]), *b = virt_to_head_page(&k->pa, objs[20]);
	assert_int_equal(a->sb_list, SB_FULL);
	assert_true(sb_list_first(&sc, n, SB_PARTIAL) == b);
	sb_put_objects(&sc, cpu, objs, 1);		/* A: 15 in use, fuller than B */
	assert_true(sb_list_first(&sc, n, SB_PARTIAL) == a);
	assert_int_equal(n->top, 15);
	assert_true(!list_empty(&n->bins[1 + (5 >> 1)]));	/* B in the bin 2^1 wide */
	set_live(&sc, objs + 1, 20, true);
	assert_int_equal(check(&sc, objs, 0, 0, &err), 0);
	list_move(&a->lru, &n->bins[0]);		/* a slab in the wrong bin */
	assert_int_equal(check(&sc, objs, 0, 0, &err), -1);
	assert_non_null(strstr(err.msg, "(15 of 16 in use) is in the cache's partial bin 0 (top 15)"));
	list_move(&a->lru, &n->bins[15]);
	set_live(&sc, objs + 1, 20, false);
	sb_put_objects(&sc, cpu, objs + 16, 5);		/* B empties: freed at once */
	assert_int_equal(sc.nall, 1);
	assert_int_equal(n->top, 15);
	struct page *c = sb_new_slab(&sc, cpu, 0);	/* an empty slab listed */
	sb_list_add(&sc, n, c, SB_PARTIAL, false);
	n->nr_slabs++;
	assert_int_equal(check(&sc, objs, 1, 16, &err), -1);
	assert_non_null(strstr(err.msg, "an empty slab is freed at once"));
	sb_list_del(&sc, n, c);
	n->nr_slabs--;
	sb_free_slab(&sc, cpu, c);
	assert_int_equal(check(&sc, objs, 1, 16, &err), 0);
	sb_put_objects(&sc, cpu, objs + 1, 15);
	assert_int_equal(sc.nall, 0);
	assert_int_equal(n->top, -1);
	sb_cache_destroy(&sc);
}

/* SLUB's and SLQB's layout: no full list (a full slab is on no list) and
 * every slab counted in its owner's nr_slabs; the slab pieces a built-in
 * grows a slab of (pages, chain, registry) and gives it back with. */
static void test_no_full_list(struct kernel *k, struct sim_cpu *cpu)
{
	struct kmem_cache kc = { .name = "layout-slub", .object_size = 256, .align = 8 };
	const struct sb_params p = { .policy = "slub", .size = 256 };
	struct sb_cache sc;
	struct sim_err err;
	layout(&sc, k, &kc, &p);
	struct page *page = sb_slab_alloc(&sc, cpu, 0, 0, 16);
	assert_non_null(page);
	assert_true((page->flags & PG_slab) && page->slab == &kc && page->objects == 16);
	assert_int_equal(sc.nall, 0);			/* not registered yet */
	sb_slab_chain(page);
	int chained = 0;
	for (uint16_t o = page->freelist; o != OBJ_NIL; o = page->obj[o].next)
		chained++;
	assert_int_equal(chained, 16);
	sb_slab_register(&sc, page);
	assert_int_equal(sc.nall, 1);
	assert_int_equal(page->slab_idx, 0);
	struct sb_node *n = sc.node[0];
	n->nr_slabs++;
	kaddr_t objs[16];
	for (int i = 0; i < 16; i++)			/* every object: full, on no list */
		objs[i] = slab_obj_addr(&kc, page, sb_chain_pop(page));
	set_live(&sc, objs, 16, true);
	assert_int_equal(check(&sc, objs, 0, 0, &err), 0);
	n->nr_slabs++;
	assert_int_equal(check(&sc, objs, 0, 0, &err), -1);
	assert_non_null(strstr(err.msg, "the lists' owners count 2 slabs (nr_slabs) but the "
			       "registry holds 1"));
	n->nr_slabs -= 2;
	sb_chain_push(page, slab_obj_index(&kc, page, objs[15]));	/* partial, listed, uncounted */
	sb_list_add(&sc, n, page, SB_PARTIAL, false);
	assert_int_equal(check(&sc, objs, 0, 0, &err), -1);
	assert_non_null(strstr(err.msg, "node 0's lists hold 1 slabs, more than its nr_slabs 0"));
	sb_list_del(&sc, n, page);
	sb_chain_pop(page);
	set_live(&sc, objs, 16, false);
	for (int i = 15; i >= 0; i--)
		sb_chain_push(page, slab_obj_index(&kc, page, objs[i]));
	assert_int_equal(page->inuse, 0);
	sb_slab_unregister(&sc, page);
	assert_int_equal(sc.nall, 0);
	assert_int_equal(page->slab_idx, -1);
	sb_slab_release(&sc, cpu, page);
	assert_false(page->flags & PG_slab);
	assert_int_equal(page_alloc_check(&k->pa, &err), 0);
	sb_cache_destroy(&sc);
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
	assert_int_equal(sc.node[0]->nr_full, 2);
	assert_int_equal(sc.node[0]->nr_partial, 1);
	assert_int_equal(sc.node[0]->nr_free, 0);
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
	sc.node[0]->nr_partial++;
	assert_int_equal(check(&sc, objs, 30, 40, &err), -1);
	assert_non_null(strstr(err.msg, "its nr_partial says 2"));
	sc.node[0]->nr_partial--;
	struct page *full = sb_list_first(&sc, sc.node[0], SB_FULL);
	list_move(&full->lru, &sc.node[0]->partial);	/* moved, still marked full */
	sc.node[0]->nr_full--, sc.node[0]->nr_partial++;
	assert_int_equal(check(&sc, objs, 30, 40, &err), -1);
	assert_non_null(strstr(err.msg, "is on node 0's partial list but marked as on full"));
	full->sb_list = SB_PARTIAL;			/* a full slab on partial */
	assert_int_equal(check(&sc, objs, 30, 40, &err), -1);
	assert_non_null(strstr(err.msg, "partial list but full"));
	sb_list_del(&sc, sc.node[0], full);		/* a slab on no list */
	assert_int_equal(check(&sc, objs, 30, 40, &err), -1);
	assert_non_null(strstr(err.msg, "registry holds 3"));
	sb_list_add(&sc, sc.node[0], full, SB_FULL, false);
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
	test_array_in_object(k, cpu, &sc);
	test_depot(k);

	/* everything back: the empty slabs beyond keep=1 go to the page allocator */
	set_live(&sc, objs, 30, false);
	sb_put_objects(&sc, cpu, objs, 40);
	assert_int_equal(sc.nall, 1);
	assert_int_equal(sc.node[0]->nr_free, 1);
	assert_int_equal(sc.slabs_freed, 2);
	assert_int_equal(check(&sc, objs, 0, 0, &err), 0);
	struct cache_info ci = { 0 };
	sb_cache_info(&sc, &ci);
	assert_int_equal(ci.slabs, 1);
	assert_int_equal(ci.partial, 1);
	assert_int_equal(ci.objs_per_slab, 16);
	struct page *last = sb_list_first(&sc, sc.node[0], SB_PARTIAL);
	sb_list_del(&sc, sc.node[0], last);
	sb_free_slab(&sc, cpu, last);
	assert_int_equal(page_alloc_check(&k->pa, &err), 0);
	sb_cache_destroy(&sc);
	test_free_list(k, cpu);
	test_bins(k, cpu);
	test_no_full_list(k, cpu);
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
