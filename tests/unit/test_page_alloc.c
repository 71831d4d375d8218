/* test_page_alloc.c - per-CPU page lists (batch, high), the buddy allocator
 * (split, merge), compound pages and page accounting; a kmalloc_large()
 * block's lines, cold when it comes from the page allocator; kzalloc's
 * cleared lines and a word's own line inside a block; 2.6.25's 56-byte
 * struct page, which shares mem_map's lines with its neighbours. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "run/run_core.h"

static struct run r;
static bool done;

static void body(struct task *t, void *arg)
{
	(void)arg;
	struct page_alloc *pa = &t->k->pa;
	struct zone *z = &pa->zones[0];
	struct sim_cpu *cpu = task_cpu(t);
	struct per_cpu_pages *pcp = &z->pcp[cpu->id];
	struct sim_err err;
	/* 2.6.25 zone_batchsize() for a zone of 512 MB or more: 31, high 186 */
	assert_int_equal(pcp->batch, 31);
	assert_int_equal(pcp->high, 186);
	uint64_t free0 = z->free_pages;
	struct page *p = alloc_pages_node(pa, cpu, 0, 0);
	assert_non_null(p);
	assert_int_equal(pcp->count, 30);		/* refilled with a batch */
	assert_int_equal(z->free_pages, free0 - 31);
	struct page *pages[200];
	pages[0] = p;
	for (int i = 1; i < 200; i++)
		pages[i] = alloc_pages_node(pa, task_cpu(t), 0, 0);
	for (int i = 0; i < 200; i++)
		__free_pages(pa, task_cpu(t), pages[i], 0);
	/* frees drain a batch each time the list reaches high */
	assert_true(pcp->count < pcp->high);
	assert_true(pcp->count >= pcp->high - pcp->batch);
	assert_int_equal(page_alloc_check(pa, &err), 0);
	/* an order-3 block: a compound page, tails point at the head */
	struct page *big = alloc_pages_node(pa, task_cpu(t), 0, 3);
	assert_non_null(big);
	assert_true(big->flags & PG_head);
	kaddr_t a = page_address(big) + 5 * PAGE_SIZE + 100;
	assert_ptr_equal(virt_to_head_page(pa, a), big);
	assert_int_equal(pa->pages_out, 8);
	__free_pages(pa, task_cpu(t), big, 3);
	assert_int_equal(pa->pages_out, 0);
	/* with the order-3 block back, the buddies merged up again */
	assert_int_equal(page_alloc_check(pa, &err), 0);
	uint64_t low = 0;
	for (int o = 0; o < 3; o++)
		low += z->free_area[o].nr_free;
	assert_true(low <= 3);	/* at most one leftover per small order */
	assert_true(pa->zone_lock_class.acquisitions >= 3);
	/* a leak is seen: hand a page out without counting it back */
	struct page *leak = alloc_pages_node(pa, task_cpu(t), 0, 1);
	pa->pages_out -= 2;
	assert_int_equal(page_alloc_check(pa, &err), -1);
	assert_non_null(strstr(err.msg, "leaked"));
	pa->pages_out += 2;
	__free_pages(pa, task_cpu(t), leak, 1);
	assert_int_equal(page_alloc_check(pa, &err), 0);
	done = true;
}

/* kmalloc(8192) on SLUB goes to the page allocator (kmalloc_large): the
 * block is no slab, but touching it is priced from its own lines: the first
 * store a miss to memory, the next one a hit; a block handed out again is
 * cold again, as a new slab's lines are. */
static void large_body(struct task *t, void *arg)
{
	bool *ok = arg;
	struct kernel *k = t->k;
	struct sim_cpu *cpu = task_cpu(t);
	kaddr_t p = __kmalloc(k, cpu, 8192, GFP_KERNEL);
	assert_true(p != 0);
	struct page *head = virt_to_head_page(&k->pa, p);
	assert_true((head->flags & PG_large) && !(head->flags & PG_slab));
	assert_int_equal(head->order, 1);
	uint64_t loads = k->hw->stats.mem_loads;
	slab_obj_touch(k, cpu, p, 1, true);		/* *p = 22 */
	assert_int_equal(k->hw->stats.mem_loads, loads + 1);
	slab_obj_touch(k, cpu, p, 1, true);		/* *p = 23: in the cache */
	assert_int_equal(k->hw->stats.mem_loads, loads + 1);
	slab_obj_touch(k, cpu, p + 8192 - 64, 4, false);	/* the last line, no further */
	assert_int_equal(k->hw->stats.mem_loads, loads + 2);
	kfree(k, cpu, p);
	assert_false(head->flags & PG_large);
	kaddr_t q = __kmalloc(k, cpu, 8192, GFP_KERNEL);
	assert_true(q != 0);
	slab_obj_touch(k, cpu, q, 1, true);		/* fresh again: cold */
	assert_int_equal(k->hw->stats.mem_loads, loads + 3);
	kfree(k, cpu, q);
	*ok = true;
}

/* Run `fn` as a task on Tigerton under `policy`; it sets its bool. */
static void run_task(const char *policy, void (*fn)(struct task *, void *))
{
	struct run_config cfg = { .machine = "tigerton", .policy = policy, .seed = 1 };
	struct sim_err err;
	bool ok = false;
	assert_int_equal(run_configure(&r, &cfg, &err), 0);
	assert_int_equal(run_build(&r, &err), 0);
	task_create(&r.k.sched, NULL, fn, &ok, "test", NULL, 0);
	engine_run(&r.eng);
	assert_true(ok);
	run_free(&r);
}

static void test_kmalloc_large_lines(void **state)
{
	(void)state;
	run_task("slub", large_body);
}

/* kzalloc() clears every line of its block on the allocating CPU (a stream
 * of stores: each cold line a load from memory, then this CPU's), and a
 * word anywhere in a block is priced from its own line: a slab object's
 * (SLAB's size-131072) and a kmalloc_large block's (SLUB), not the first
 * line of the object as slab_obj_touch() prices a touch of an object. */
static void word_body(struct task *t, void *arg)
{
	bool *ok = arg;
	struct kernel *k = t->k;
	struct sim_cpu *cpu = task_cpu(t);
	kaddr_t p = __kmalloc(k, cpu, 100000, GFP_KERNEL);	/* not cleared: cold */
	assert_true(p != 0);
	struct page *head = virt_to_head_page(&k->pa, p);
	uint64_t first = (p - page_address(head)) >> 6;
	uint64_t loads = k->hw->stats.mem_loads;
	kmem_word_touch(k, cpu, p + 8 * 1000, true);	/* v[1000] = ...: line 125 */
	assert_int_equal(k->hw->stats.mem_loads, loads + 1);
	assert_int_equal(head->cl[first + 125], cpu->id);
	assert_int_equal(head->cl[first], -1);
	assert_int_equal(head->cl[first + 126], -1);
	kmem_word_touch(k, cpu, p + 8 * 1007, false);	/* the same line: a hit */
	assert_int_equal(k->hw->stats.mem_loads, loads + 1);
	kmem_word_touch(k, cpu, p + 8 * 1008, false);	/* the next line */
	assert_int_equal(k->hw->stats.mem_loads, loads + 2);
	loads = k->hw->stats.mem_loads;
	kaddr_t z = kzalloc(k, cpu, 100000, GFP_KERNEL);	/* 1563 lines */
	assert_true(z != 0);
	assert_true(k->hw->stats.mem_loads >= loads + 1563);	/* and the allocator's own */
	struct page *zp = virt_to_head_page(&k->pa, z);
	uint64_t zl = (z - page_address(zp)) >> 6;
	for (uint64_t i = 0; i < 1563; i++)
		assert_int_equal(zp->cl[zl + i], cpu->id);
	kfree(k, cpu, z);
	kfree(k, cpu, p);
	*ok = true;
}

static void test_kmalloc_word_lines(void **state)
{
	(void)state;
	run_task("slab", word_body);
	run_task("slub", word_body);
}

/* 2.6.25: eight 56-byte struct pages fill seven lines, so page 1's flags
 * (its slab_lock bit) share page 0's lru line, and page 2's flags and lru
 * lie on two lines; 3.1's struct page is 64 bytes, one line of its own. */
static void layout_body(struct task *t, void *arg)
{
	bool *ok = arg;
	struct page_alloc *pa = &t->k->pa;
	struct page *p = alloc_pages_node(pa, task_cpu(t), 0, 3);	/* 8 struct pages */
	assert_non_null(p);
	assert_int_equal(p->pfn % 8, 0);
	if (t->k->era < 30100) {
		assert_true(pa->page56);
		assert_ptr_equal(p[1].lock.line, page_field_line(pa, &p[0], PAGE_OFF_LRU));
		assert_ptr_not_equal(p[1].lock.line, &p[1].line);
		assert_ptr_not_equal(page_field_line(pa, &p[2], 0),
				     page_field_line(pa, &p[2], PAGE_OFF_LRU));
		/* the eighth ends the seventh line: the next page starts a line */
		assert_ptr_equal(page_field_line(pa, &p[7], PAGE_OFF_LRU),
				 page_field_line(pa, &p[0], 0) + 6);
		struct hw_line *a = page_field_line(pa, &p[2], 0);
		struct hw_line *b = page_field_line(pa, &p[2], PAGE_OFF_LRU);
		page_access(pa, task_cpu(t), &p[2], PF_FLAGS | PF_LRU, true);
		assert_int_equal(a->owner, task_cpu(t)->id);
		assert_int_equal(b->owner, task_cpu(t)->id);
	} else {
		assert_false(pa->page56);
		assert_ptr_equal(p[1].lock.line, &p[1].line);
		assert_ptr_equal(page_field_line(pa, &p[2], PAGE_OFF_LRU), &p[2].line);
	}
	__free_pages(pa, task_cpu(t), p, 3);
	*ok = true;
}

static void test_struct_page_layout(void **state)
{
	(void)state;
	const char *eras[] = { "kernel=2.6.25", "kernel=3.1" };
	for (int i = 0; i < 2; i++) {
		struct run_config cfg = { .machine = "tigerton", .policy = "slub", .seed = 1,
					  .assign = &eras[i], .nassign = 1 };
		struct sim_err err;
		bool ok = false;
		assert_int_equal(run_configure(&r, &cfg, &err), 0);
		assert_int_equal(run_build(&r, &err), 0);
		task_create(&r.k.sched, NULL, layout_body, &ok, "test", NULL, 0);
		engine_run(&r.eng);
		assert_true(ok);
		run_free(&r);
	}
}

static void test_page_allocator(void **state)
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
		cmocka_unit_test(test_page_allocator),
		cmocka_unit_test(test_kmalloc_large_lines),
		cmocka_unit_test(test_kmalloc_word_lines),
		cmocka_unit_test(test_struct_page_layout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
