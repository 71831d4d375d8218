/* test_run_timeline.c - the rows of `run --timeline` (sim/run/run_timeline.c):
 * none unless asked; one at the start, then one at the first tick in each
 * later interval (ticks inside an interval that already has its row add
 * none, a tick that skips intervals adds one), one at the end unless a row
 * was just taken then; each row holds the run's counts at its time: the
 * workload's units, the live objects of every cache, the slab pages and
 * the slabs on partial lists (an alias's counted once, as its target's), the
 * CPUs' busy, allocator and spin cycles, the runnable tasks, those waiting
 * on AF_UNIX sockets and the scheduler's counts; and the lock class waited
 * on most since the row before, with its counts over that interval and
 * the call site that waited most for it then. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "run/run_core.h"

static uint64_t units_done;

static void fake_progress(const void *state, uint64_t *done, uint64_t *total, const char **unit)
{
	(void)state;
	*done = units_done;
	*total = 1000;
	*unit = "messages";
}

static const struct workload fake_wl = { .name = "fake", .progress = fake_progress };

/* slabinfo's partial slabs of a cache: its objects' size, to tell them apart. */
static void fake_cache_info(void *state, struct kmem_cache *c, struct cache_info *out)
{
	(void)state;
	memset(out, 0, sizeof(*out));
	out->partial = c->size;
}

static const struct slab_policy fake_policy = { .name = "fake", .cache_info = fake_cache_info };

/* A run with two caches and two CPUs, on a 1 GHz machine (a microsecond is
 * 1000 cycles), asking for a row every `every_us`; its caches, their list
 * and its CPUs live beside it. */
struct fake {
	struct run r;
	struct kmem_cache kc[2];
	struct kmem_cache *list[2];
	struct sim_cpu cpus[2];
};

static struct run *fake_run(uint64_t every_us)
{
	struct fake *f = calloc(1, sizeof(*f));
	struct run *r = &f->r;
	r->m.ghz = 1;
	r->wl = &fake_wl;
	r->wstate = r;
	f->list[0] = &f->kc[0];
	f->list[1] = &f->kc[1];
	r->k.caches = f->list;
	r->k.ncaches = 2;
	r->eng.cpus = f->cpus;
	r->eng.ncpus = 2;
	run_timeline_init(&r->timeline, every_us, r->m.ghz);
	return r;
}

/* Free the rows and the fake run. */
static void fake_free(struct run *r)
{
	run_timeline_free(&r->timeline);
	assert_null(r->timeline.rows);
	free(r);	/* the struct fake: r is its first member */
}

static void test_no_rows_unless_asked(void **state)
{
	(void)state;
	struct run *r = fake_run(0);
	run_timeline_tick(r);
	r->eng.now = 5000;
	run_timeline_tick(r);
	run_timeline_end(r);
	assert_int_equal(r->timeline.nrows, 0);
	fake_free(r);
}

static void test_one_row_per_interval(void **state)
{
	(void)state;
	struct run *r = fake_run(10);	/* every 10000 cycles */
	static const uint64_t ticks[] = { 0, 3000, 9999, 10000, 12000, 25000, 61000, 69999 };
	for (size_t i = 0; i < sizeof(ticks) / sizeof(ticks[0]); i++) {
		r->eng.now = ticks[i];
		run_timeline_tick(r);
	}
	static const uint64_t want[] = { 0, 10000, 25000, 61000 };
	assert_int_equal(r->timeline.nrows, 4);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(r->timeline.rows[i].cycles, want[i]);
	run_timeline_end(r);	/* the end, after the last row: a row of its own */
	assert_int_equal(r->timeline.nrows, 5);
	assert_int_equal(r->timeline.rows[4].cycles, 69999);
	run_timeline_end(r);	/* at the last row's time: none */
	assert_int_equal(r->timeline.nrows, 5);
	fake_free(r);
}

static void test_row_holds_the_counts(void **state)
{
	(void)state;
	struct run *r = fake_run(1);
	units_done = 123;
	struct fake *f = (struct fake *)r;
	f->kc[0].live = 40;
	f->kc[1].live = 2;
	f->kc[0].size = 6;	/* partial slabs (fake_cache_info) */
	f->kc[1].size = 9;
	f->kc[1].alias = &f->kc[0];	/* merged: its slabs are kc[0]'s, counted once */
	r->k.policy = &fake_policy;
	r->k.pa.slab_pages = 7;
	f->cpus[0].busy = 900, f->cpus[0].in_region = 500, f->cpus[0].spin = 300;
	f->cpus[1].busy = 100, f->cpus[1].in_region = 50, f->cpus[1].spin = 0;
	struct rq rq[2] = { { .nr_running = 5 }, { .nr_running = 2 } };
	r->k.sched.rq = rq;
	r->k.sched.ncpus = 2;
	r->k.unix_waiting.wmem = 4;
	r->k.unix_waiting.data = 9;
	r->k.sched.context_switches = 11, r->k.sched.wakeups = 12, r->k.sched.migrations = 13;
	r->k.sched.nr_exited = 3;
	r->k.sched.run_delay = 1000, r->k.sched.pcount = 14;
	r->k.sched.wake_delay = 600, r->k.sched.wake_pcount = 5;
	r->eng.now = 4242;
	run_timeline_tick(r);
	assert_int_equal(r->timeline.nrows, 1);
	const struct timeline_row *row = &r->timeline.rows[0];
	assert_int_equal(row->cycles, 4242);
	assert_int_equal(row->done, 123);
	assert_int_equal(row->live, 42);
	assert_int_equal(row->slab_pages, 7);
	assert_int_equal(row->partial_slabs, 6);
	assert_int_equal(row->busy, 1000);
	assert_int_equal(row->in_slab, 550);
	assert_int_equal(row->spin, 300);
	assert_int_equal(row->runnable, 7);
	assert_int_equal(row->wait_wmem, 4);
	assert_int_equal(row->wait_data, 9);
	assert_int_equal(row->switches, 11);
	assert_int_equal(row->wakeups, 12);
	assert_int_equal(row->migrations, 13);
	assert_int_equal(row->exited, 3);
	assert_int_equal(row->run_delay, 1000);
	assert_int_equal(row->pcount, 14);
	assert_int_equal(row->wake_delay, 600);
	assert_int_equal(row->wake_pcount, 5);
	fake_free(r);
}

/* Set a lock class's lock_stat counts. */
static void set_class(struct hw_lock_class *c, uint64_t acq, uint64_t con, uint64_t wait,
		      uint64_t hold)
{
	c->acquisitions = acq, c->contentions = con, c->wait_total = wait, c->hold_total = hold;
}

/* The lock of a row is the one waited on most over its interval, not over
 * the run: a class that waited long before and little since gives way. */
static void test_hottest_lock_of_the_interval(void **state)
{
	(void)state;
	struct run *r = fake_run(10);
	struct hw_lock_class a = { .name = "a" }, b = { .name = "b" }, c = { .name = "c" };
	a.next = &b, b.next = &c;
	r->hw.classes = &a;
	r->hw.nclasses = 3;
	set_class(&a, 100, 50, 9000, 700);	/* at the first row: a waited most */
	set_class(&b, 10, 1, 10, 20);
	run_timeline_tick(r);
	assert_string_equal(r->timeline.rows[0].lock, "a");
	assert_int_equal(r->timeline.rows[0].lock_wait, 9000);
	set_class(&a, 110, 51, 9100, 770);	/* since: a waited 100, b 500 */
	set_class(&b, 60, 31, 510, 420);
	set_class(&c, 5, 0, 0, 5);
	r->eng.now = 10000;
	run_timeline_tick(r);
	const struct timeline_row *row = &r->timeline.rows[1];
	assert_string_equal(row->lock, "b");
	assert_int_equal(row->lock_acq, 50);
	assert_int_equal(row->lock_con, 30);
	assert_int_equal(row->lock_wait, 500);
	assert_int_equal(row->lock_hold, 400);
	/* nobody waits: the most taken; a class's counts below the last row's
	 * (freed, another in its place) count from zero */
	set_class(&a, 120, 51, 9100, 780);
	set_class(&b, 3, 0, 0, 3);
	r->eng.now = 20000;
	run_timeline_tick(r);
	row = &r->timeline.rows[2];
	assert_string_equal(row->lock, "a");
	assert_int_equal(row->lock_acq, 10);
	assert_int_equal(row->lock_wait, 0);
	r->hw.classes = NULL;	/* nothing taken since: no lock */
	r->eng.now = 30000;
	run_timeline_tick(r);
	assert_string_equal(r->timeline.rows[3].lock, "");
	fake_free(r);
}

/* The call site that waited most for the row's lock over the interval: a
 * site that waited long before and little since gives way to one that
 * waited more since. */
static void test_lock_site_of_the_interval(void **state)
{
	(void)state;
	struct run *r = fake_run(10);
	profile_init(&r->eng.prof);
	int alloc = profile_sym(&r->eng.prof, "get_partial_node", SYM_SLAB);
	int free_ = profile_sym(&r->eng.prof, "add_partial", SYM_SLAB);
	struct hw_lock_class a = { .name = "list_lock" };
	for (int i = 0; i < LOCKSTAT_POINTS; i++)
		a.contention_point[i].sym = -1;
	a.contention_point[0] = (struct hw_lock_point){ .sym = alloc, .contentions = 9, .wait = 900 };
	a.contention_point[1] = (struct hw_lock_point){ .sym = free_, .contentions = 1, .wait = 100 };
	r->hw.classes = &a;
	r->hw.nclasses = 1;
	set_class(&a, 20, 10, 1000, 200);
	run_timeline_tick(r);
	assert_string_equal(r->timeline.rows[0].lock_site, "get_partial_node");
	assert_int_equal(r->timeline.rows[0].lock_site_wait, 900);
	a.contention_point[0].wait = 950;	/* since: 50 against 300 */
	a.contention_point[1].wait = 400;
	set_class(&a, 30, 14, 1350, 260);
	r->eng.now = 10000;
	run_timeline_tick(r);
	assert_string_equal(r->timeline.rows[1].lock_site, "add_partial");
	assert_int_equal(r->timeline.rows[1].lock_site_wait, 300);
	assert_int_equal(r->timeline.rows[1].lock_wait, 350);
	fake_free(r);
}

/* Many rows: the table grows past its first allocation and keeps every row. */
static void test_many_rows(void **state)
{
	(void)state;
	struct run *r = fake_run(1);
	for (uint64_t t = 0; t < 1000 * 1000; t += 1000) {
		r->eng.now = t;
		units_done = t / 1000;
		run_timeline_tick(r);
	}
	assert_int_equal(r->timeline.nrows, 1000);
	for (size_t i = 0; i < 1000; i++)
		assert_int_equal(r->timeline.rows[i].done, i);
	fake_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_rows_unless_asked),
		cmocka_unit_test(test_one_row_per_interval),
		cmocka_unit_test(test_row_holds_the_counts),
		cmocka_unit_test(test_hottest_lock_of_the_interval),
		cmocka_unit_test(test_lock_site_of_the_interval),
		cmocka_unit_test(test_many_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
