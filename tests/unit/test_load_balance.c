/* test_load_balance.c - one periodic balancing run moves at most
 * sysctl_sched_nr_migrate tasks (32; kernel/sched.c balance_tasks() of
 * 2.6.24 on, which runs with interrupts off). 100 runnable tasks wait on
 * CPU 0; a task alone on CPU 1 runs load_balance() once, which would take
 * half the difference (49) but must stop at 32. */
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
	int moved;
	bool stop;
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

/* The balancer on CPU 1: one periodic run, then let the others finish. */
static void balancer(struct task *t, void *arg)
{
	(void)arg;
	lb.moved = load_balance(&t->k->sched, task_cpu(t), false);
	lb.stop = true;
}

static void test_one_run_moves_at_most_nr_migrate(void **state)
{
	(void)state;
	memset(&lb, 0, sizeof(lb));
	struct run_config cfg = { .machine = "tigerton", .policy = "slub", .seed = 1 };
	struct sim_err err;
	if (run_configure(&lb.r, &cfg, &err) < 0 || run_build(&lb.r, &err) < 0)
		fail_msg("%s", err.msg);
	struct kernel *k = &lb.r.k;
	for (int i = 0; i < QUEUED; i++)
		task_create(&k->sched, NULL, busy, NULL, "busy", NULL, 0);
	task_create_pinned(&k->sched, NULL, balancer, NULL, "balancer", NULL, 1);
	engine_run(&lb.r.eng);
	assert_int_equal(lb.moved, 32);
	run_free(&lb.r);
}

int main(void)
{
	setenv("SLABSIM_MACHINES", "machines", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_run_moves_at_most_nr_migrate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
