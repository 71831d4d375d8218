/* test_wait_queue.c - the order of a wait queue (kernel/wait.c): the kernel's
 * prepare_to_wait() adds a waiter with __add_wait_queue(), list_add() at the
 * head, so wake_up() of non-exclusive waiters meets the last to come first.
 * Three sleepers on CPUs 1-3 queue one after another; the waker on CPU 0
 * reads the queue's order, then wakes them all and checks each woke. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "run/run_core.h"
#include "kernel/wait.h"

#define SLEEPERS 3

struct wq_test {
	struct run r;
	struct hw_lock_class cls;
	struct wait_queue_head wq;
	struct task *sleeper[SLEEPERS];	/* in the order they queued */
	int queued;
	struct task *order[SLEEPERS];	/* the queue as the waker found it, head first */
	int listed, woke;
};

/* A sleeper: run 100,000 cycles a turn (so the three queue in turn), then sleep until woken. */
static void sleeper(struct task *t, void *arg)
{
	struct wq_test *w = arg;
	cpu_charge(task_cpu(t), 100000ull * (uint64_t)t->cpu);
	w->sleeper[w->queued++] = t;
	prepare_to_wait(t, &w->wq);
	schedule(t);
	finish_wait(t, &w->wq);
	w->woke++;
}

/* The waker: long after all three sleep, note the queue's order and wake them. */
static void waker(struct task *t, void *arg)
{
	struct wq_test *w = arg;
	struct hw *hw = t->k->hw;
	cpu_charge(task_cpu(t), 10000000ull);
	hw_spin_lock(hw, task_cpu(t), &w->wq.lock);	/* read the queue as the kernel would */
	struct task *p;
	list_for_each_entry(p, &w->wq.task_list, wait_entry)
		if (w->listed < SLEEPERS)
			w->order[w->listed++] = p;
	hw_spin_unlock(hw, task_cpu(t), &w->wq.lock);
	wake_up(t, &w->wq, false);
}

static void test_last_to_wait_is_first_in_the_queue(void **state)
{
	(void)state;
	static struct wq_test w;
	memset(&w, 0, sizeof(w));
	struct run_config cfg = { .machine = "tigerton", .policy = "slub", .seed = 1 };
	struct sim_err err;
	if (run_configure(&w.r, &cfg, &err) < 0 || run_build(&w.r, &err) < 0)
		fail_msg("%s", err.msg);
	struct kernel *k = &w.r.k;
	hw_lock_class_init(k->hw, &w.cls, "test wait queue", k->hw->sym_spin_lock);
	init_waitqueue_head(k, &w.wq, &w.cls, 0);
	for (int i = 1; i <= SLEEPERS; i++)
		task_create_pinned(&k->sched, NULL, sleeper, &w, "sleeper", NULL, i);
	task_create_pinned(&k->sched, NULL, waker, &w, "waker", NULL, 0);
	engine_run(&w.r.eng);
	assert_int_equal(w.queued, SLEEPERS);
	assert_int_equal(w.listed, SLEEPERS);
	for (int i = 0; i < SLEEPERS; i++)
		assert_ptr_equal(w.order[i], w.sleeper[SLEEPERS - 1 - i]);
	assert_int_equal(w.woke, SLEEPERS);
	assert_true(list_empty(&w.wq.task_list));
	run_free(&w.r);
}

int main(void)
{
	setenv("SLABSIM_MACHINES", "machines", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_last_to_wait_is_first_in_the_queue),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
