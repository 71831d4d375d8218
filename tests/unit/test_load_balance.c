/* test_load_balance.c - what one balancing run moves, by the kernel's
 * balance_tasks() (kernel/sched.c, 2.6.24 on): it looks at no more than
 * sysctl_sched_nr_migrate + 1 tasks (`loops++ > sysctl_sched_nr_migrate`,
 * 32), in its iterator's order: to 2.6.25 from first_fair(), the leftmost
 * task of the rbtree (kernel/sched_fair.c load_balance_start_fair()); from
 * 2.6.26 down cfs_rq->tasks, the latest queued first. A newly idle CPU
 * (load_balance_newidle()) moves the imbalance as the periodic run does.
 * A task that ran within sysctl_sched_migration_cost stays (can_migrate_task(),
 * task_hot()).
 * 100 runnable tasks wait on CPU 0; a task alone on CPU 1 runs
 * load_balance() once, which would take half the difference (49); a
 * pinned task keeps each other CPU busy, so none pulls first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "run/run_core.h"
#include "kernel/sched_internal.h"

#define QUEUED 100

struct lb_test {
	struct run r;
	bool newidle;
	int hot;		/* the leftmost tasks made cache-hot before the run */
	int moved;
	bool stop;
	uint64_t before[QUEUED];	/* CPU 0's tasks' vruntimes before the run */
	struct task *task[QUEUED];
	int was_heap_idx[QUEUED];
	int nheap_before;
	bool moved_here[QUEUED];	/* on CPU 1 right after the run */
};

static struct lb_test lb;

/* A task queued on CPU 0 that never gets to run before the balancing. */
static void busy(struct task *t, void *arg)
{
	(void)arg;
	while (!lb.stop) {
		cpu_charge(task_cpu(t), 10000);
		sched_preempt_point(t);
	}
}

/* The balancer on CPU 1: note CPU 0's queue, balance once, let the others finish. */
static void balancer(struct task *t, void *arg)
{
	(void)arg;
	cpu_charge(task_cpu(t), 2 * t->k->sched.migration_cost);	/* past task_hot() of a new task */
	const struct rq *rq0 = &t->k->sched.rq[0];
	lb.nheap_before = rq0->nheap;
	for (int i = 0; i < QUEUED; i++)	/* the `hot` smallest vruntimes just ran */
		if (lb.task[i]->cpu == 0 && lb.task[i]->heap_idx >= 0 &&
		    lb.task[i]->vruntime < 1000 + (uint64_t)lb.hot * 1000)
			lb.task[i]->exec_start = task_cpu(t)->clock;
	for (int i = 0; i < QUEUED; i++) {
		lb.before[i] = lb.task[i]->vruntime;
		lb.was_heap_idx[i] = lb.task[i]->cpu == 0 ? lb.task[i]->heap_idx : -1;
	}
	lb.moved = load_balance(&t->k->sched, task_cpu(t), lb.newidle);
	for (int i = 0; i < QUEUED; i++)
		lb.moved_here[i] = lb.was_heap_idx[i] >= 0 && lb.task[i]->cpu == 1;
	lb.stop = true;
}

/* Queue QUEUED tasks on CPU 0 under `kernel`, balance once from CPU 1. */
static void run_balance(const char *kernel, bool newidle, int hot)
{
	memset(&lb, 0, sizeof(lb));
	lb.newidle = newidle;
	lb.hot = hot;
	const char *assigns[] = { kernel };
	struct run_config cfg = { .machine = "tigerton", .policy = "slub", .seed = 1,
				  .assign = assigns, .nassign = 1 };
	struct sim_err err;
	if (run_configure(&lb.r, &cfg, &err) < 0 || run_build(&lb.r, &err) < 0)
		fail_msg("%s", err.msg);
	struct kernel *k = &lb.r.k;
	for (int i = 0; i < QUEUED; i++)	/* all start on CPU 0 */
		lb.task[i] = task_create(&k->sched, NULL, busy, NULL, "busy", NULL, 0);
	struct rq *rq0 = &k->sched.rq[0];
	for (int i = 0; i < QUEUED; i++) {	/* vruntimes in another order than queued */
		struct task *t = lb.task[i];
		if (t->heap_idx < 0 || rq0->heap[t->heap_idx] != t)
			continue;	/* CPU 0's current task */
		heap_remove(rq0, t);
		t->vruntime = 1000 + (uint64_t)((i * 37) % QUEUED) * 1000;
		heap_push(rq0, t);
	}
	for (int c = 2; c < k->m->ncpus; c++)	/* no other CPU idles and pulls first */
		task_create_pinned(&k->sched, NULL, busy, NULL, "filler", NULL, c);
	task_create_pinned(&k->sched, NULL, balancer, NULL, "balancer", NULL, 1);
	engine_run(&lb.r.eng);
}

/* How many of the tasks moved to CPU 1; the moved ones' vruntimes (before) against
 * the stayers', and whether the moved ones are exactly the heap's last slots. */
static int moved_count(uint64_t *max_moved, uint64_t *min_stayed, bool *from_tail)
{
	int n = 0;
	*max_moved = 0;
	*min_stayed = UINT64_MAX;
	*from_tail = true;
	for (int i = 0; i < QUEUED; i++) {
		if (lb.was_heap_idx[i] < 0)
			continue;	/* running on CPU 0: not on the queue */
		bool moved = lb.moved_here[i];
		if (moved) {
			n++;
			if (lb.before[i] > *max_moved)
				*max_moved = lb.before[i];
		} else if (lb.before[i] < *min_stayed) {
			*min_stayed = lb.before[i];
		}
		bool in_tail = lb.was_heap_idx[i] >= lb.nheap_before - lb.moved;
		if (moved != in_tail)
			*from_tail = false;
	}
	return n;
}

static void test_one_run_looks_at_nr_migrate_plus_one(void **state)
{
	(void)state;
	run_balance("kernel=3.2", false, 0);
	assert_int_equal(lb.moved, 33);
	run_free(&lb.r);
}

static void test_2625_walks_from_the_leftmost(void **state)
{
	(void)state;
	run_balance("kernel=2.6.25-rc5", false, 0);
	uint64_t max_moved, min_stayed;
	bool from_tail;
	assert_int_equal(lb.moved, 33);
	assert_int_equal(moved_count(&max_moved, &min_stayed, &from_tail), 33);
	assert_true(min_stayed > 0 && min_stayed != UINT64_MAX);
	assert_true(max_moved <= min_stayed);	/* the 33 next to run went */
	assert_false(from_tail);
	run_free(&lb.r);
}

static void test_2626_on_walks_the_latest_queued_first(void **state)
{
	(void)state;
	run_balance("kernel=3.2", false, 0);
	uint64_t max_moved, min_stayed;
	bool from_tail;
	assert_int_equal(moved_count(&max_moved, &min_stayed, &from_tail), 33);
	assert_true(from_tail);
	assert_true(max_moved > min_stayed);	/* not the leftmost */
	run_free(&lb.r);
}

static void test_newly_idle_moves_the_imbalance(void **state)
{
	(void)state;
	run_balance("kernel=2.6.25-rc5", true, 0);
	assert_int_equal(lb.moved, 33);
	run_free(&lb.r);
}

static void test_cache_hot_tasks_stay(void **state)
{
	(void)state;
	run_balance("kernel=2.6.25-rc5", false, 10);
	uint64_t max_moved, min_stayed;
	bool from_tail;
	/* the 33 looked at are the leftmost; those that just ran (CPU 0's
	 * current task aside, which is not queued) stay */
	int queued_hot = 0;
	for (int i = 0; i < QUEUED; i++)
		if (lb.before[i] < 11000 && lb.was_heap_idx[i] >= 0) {
			queued_hot++;
			assert_false(lb.moved_here[i]);
		}
	assert_true(queued_hot >= 9);
	assert_int_equal(lb.moved, 33 - queued_hot);
	assert_int_equal(moved_count(&max_moved, &min_stayed, &from_tail), 33 - queued_hot);
	run_free(&lb.r);
}

int main(void)
{
	setenv("SLABSIM_MACHINES", "machines", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_run_looks_at_nr_migrate_plus_one),
		cmocka_unit_test(test_2625_walks_from_the_leftmost),
		cmocka_unit_test(test_2626_on_walks_the_latest_queued_first),
		cmocka_unit_test(test_newly_idle_moves_the_imbalance),
		cmocka_unit_test(test_cache_hot_tasks_stay),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
