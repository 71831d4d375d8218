/* test_sched_info.c - schedstats' run-queue waits (run_delay, pcount): a
 * task's wait runs from the moment it joins a run queue to its switch-in,
 * and the waits a wake-up began are counted apart. The scene, on CPU 0 of
 * Tigerton under 2.6.25-rc5: a sleeper and a waker, both pinned there. The
 * waker runs past the wake-up granularity, wakes the sleeper, works on for
 * DELAY cycles and only then reaches a preemption point, where the wakee
 * (owed more than the granularity) preempts it: the wakee waited DELAY
 * cycles and a little more (the wake-up's own cycles after the enqueue). */
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

#define DELAY 3000000ull	/* about 1 ms at 2.93 GHz: below the slice, above any cost */
#define SLACK 20000ull		/* the wake-up's cycles after the enqueue, the switch */
#define SHORT 100000ull		/* an exit (30,000 cycles on core2) and two switches */

struct info_test {
	struct run r;
	struct hw_lock_class cls;
	struct wait_queue_head wq;
	int wakee_ran;
};

static void sleeper(struct task *t, void *arg)
{
	struct info_test *it = arg;
	prepare_to_wait(t, &it->wq);
	schedule(t);
	finish_wait(t, &it->wq);
	it->wakee_ran++;
}

static void waker(struct task *t, void *arg)
{
	struct info_test *it = arg;
	/* run past the wake-up granularity: the sleeper, at vruntime 0, is owed it */
	cpu_charge(task_cpu(t), t->k->sched.wakeup_granularity + DELAY);
	wake_up(t, &it->wq, true);
	cpu_charge(task_cpu(t), DELAY);
	assert_int_equal(it->wakee_ran, 0);	/* no preemption point yet */
	sched_preempt_point(t);
	assert_int_equal(it->wakee_ran, 1);	/* it preempted the waker there */
}

static void test_a_wakee_waits_from_its_wake_up_to_its_switch_in(void **state)
{
	(void)state;
	static struct info_test it;
	memset(&it, 0, sizeof(it));
	const char *assigns[] = { "kernel=2.6.25-rc5" };
	struct run_config cfg = { .machine = "tigerton", .policy = "slub", .seed = 1,
				  .assign = assigns, .nassign = 1 };
	struct sim_err err;
	if (run_configure(&it.r, &cfg, &err) < 0 || run_build(&it.r, &err) < 0)
		fail_msg("%s", err.msg);
	struct kernel *k = &it.r.k;
	struct sched *s = &k->sched;
	hw_lock_class_init(k->hw, &it.cls, "test wait queue", k->hw->sym_spin_lock);
	init_waitqueue_head(k, &it.wq, &it.cls, 0);
	task_create_pinned(s, NULL, sleeper, &it, "sleeper", NULL, 0);
	task_create_pinned(s, NULL, waker, &it, "waker", NULL, 0);
	engine_run(&it.r.eng);
	assert_int_equal(it.wakee_ran, 1);
	/* one wait began with a wake-up: DELAY and the wake-up's tail */
	assert_int_equal(s->wake_pcount, 1);
	assert_true(s->wake_delay >= DELAY);
	assert_true(s->wake_delay <= DELAY + SLACK);
	/* all waits: both tasks' first switch-ins (queued at the start; the
	 * waker's behind the sleeper until it slept), the wakee's, and the
	 * waker's after it was preempted (while the wakee ran on to its exit):
	 * the others short, not all zero */
	assert_int_equal(s->pcount, 4);
	assert_true(s->run_delay > s->wake_delay);
	assert_true(s->run_delay < s->wake_delay + SHORT);
	run_free(&it.r);
}

int main(void)
{
	setenv("SLABSIM_MACHINES", "machines", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_wakee_waits_from_its_wake_up_to_its_switch_in),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
