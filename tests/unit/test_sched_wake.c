/* test_sched_wake.c - where a sync wake-up puts its wakee (select_task_rq_fair
 * of 2.6.25, wake_affine). The wakee sleeps alone on CPU 4; its waker runs
 * on CPU 0 with three more tasks queued there, so the load test alone keeps
 * the wakee on CPU 4. From 2.6.25-rc7 (4ae7d5cefd4) a wakee and waker that
 * run briefly after waking others (avg_overlap below migration_cost) are
 * pulled together anyway. 2.6.24 and 2.6.25-rc5 pull only a cache-cold wakee
 * (task_hot false: it last ran migration_cost ago or more), so one woken
 * soon after it slept stays where it ran. The kernel=2.6.25-rc5 presets (the
 * 10 ms wake-up granularity, plain socket wake-ups) are checked too. So is
 * hackbench's start: its write to the wake pipe is pipe_write()'s
 * wake_up_interruptible_sync(), and on 2.6.25-rc5 it pulls the cold children
 * to the parent's CPU. */
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

struct wake_test {
	struct run r;
	struct hw_lock_class cls;
	struct wait_queue_head wq;
	uint64_t delay;		/* cycles the waker runs before it wakes */
	int slept_on, woke_on;
	bool stop;
};

static void busy(struct task *t, void *arg)
{
	struct wake_test *wt = arg;
	while (!wt->stop) {
		cpu_charge(task_cpu(t), 10000);
		sched_preempt_point(t);
	}
}

static void sleeper(struct task *t, void *arg)
{
	struct wake_test *wt = arg;
	wt->slept_on = t->cpu;
	prepare_to_wait(t, &wt->wq);
	schedule(t);
	finish_wait(t, &wt->wq);
	wt->woke_on = t->cpu;
}

static void waker(struct task *t, void *arg)
{
	struct wake_test *wt = arg;
	struct sched *s = &t->k->sched;
	for (int i = 0; i < 3; i++)	/* queued behind the waker (START_DEBIT) */
		task_create_pinned(s, t, busy, wt, "busy", NULL, 0);
	cpu_charge(task_cpu(t), wt->delay);
	wake_up(t, &wt->wq, true);
	wt->stop = true;
}

/* Run the scene under `kernel` with the waker's delay; return the wakee's CPU. */
static int woken_on(const char *kernel, uint64_t delay)
{
	static struct wake_test wt;
	memset(&wt, 0, sizeof(wt));
	char assign[64];
	snprintf(assign, sizeof(assign), "kernel=%s", kernel);
	const char *assigns[] = { assign };
	struct run_config cfg = { .machine = "tigerton", .policy = "slub", .seed = 1,
				  .assign = assigns, .nassign = 1 };
	struct sim_err err;
	if (run_configure(&wt.r, &cfg, &err) < 0 || run_build(&wt.r, &err) < 0)
		fail_msg("%s", err.msg);
	struct kernel *k = &wt.r.k;
	hw_lock_class_init(k->hw, &wt.cls, "test wait queue", k->hw->sym_spin_lock);
	init_waitqueue_head(k, &wt.wq, &wt.cls, 0);
	wt.delay = delay;
	wt.slept_on = wt.woke_on = -1;
	task_create(&k->sched, NULL, sleeper, &wt, "sleeper", NULL, 4);
	task_create_pinned(&k->sched, NULL, waker, &wt, "waker", NULL, 0);
	engine_run(&wt.r.eng);
	assert_int_equal(wt.slept_on, 4);
	int cpu = wt.woke_on;
	run_free(&wt.r);
	return cpu;
}

#define HOT 30000ull	/* 10 us at 2.93 GHz: well inside migration_cost (0.5 ms) */
#define COLD 3000000ull	/* 1 ms */

static void test_overlap_pulls_a_hot_wakee(void **state)
{
	(void)state;
	assert_int_equal(woken_on("2.6.25", HOT), 0);
	assert_int_equal(woken_on("2.6.26", HOT), 0);
}

static void test_before_rc7_a_hot_wakee_stays(void **state)
{
	(void)state;
	assert_int_equal(woken_on("2.6.25-rc5", HOT), 4);
	assert_int_equal(woken_on("2.6.24", HOT), 4);
}

static void test_before_rc7_a_cold_wakee_is_pulled(void **state)
{
	(void)state;
	assert_int_equal(woken_on("2.6.25-rc5", COLD), 0);
}

/* Run `hackbench 4 process 1` under kernel=2.6.25-rc5; give its sched counters. */
static void hackbench_sched(uint64_t *wakeups_sync, uint64_t *wakeups_migrate, int *tasks)
{
	static struct run r;
	memset(&r, 0, sizeof(r));
	const char *assigns[] = { "kernel=2.6.25-rc5" };
	struct run_config cfg = { .machine = "tigerton", .policy = "slub", .seed = 1,
				  .workload = "hackbench 4 process 1",
				  .assign = assigns, .nassign = 1 };
	struct sim_err err;
	if (run_configure(&r, &cfg, &err) < 0)
		fail_msg("%s", err.msg);
	int rc = run_execute(&r, &err);
	if (rc != 0)
		fail_msg("run: %s", rc < 0 ? err.msg : r.invariants_msg);
	*wakeups_sync = r.k.sched.wakeups_sync;
	*wakeups_migrate = r.k.sched.wakeups_migrate;
	*tasks = (int)r.k.sched.nr_tasks;
	run_free(&r);
}

static void test_hackbench_start_is_a_sync_wakeup(void **state)
{
	(void)state;
	uint64_t sync, migrate;
	int tasks;
	hackbench_sched(&sync, &migrate, &tasks);
	/* 160 children poll the wake pipe. With one loop no writer blocks, so
	 * besides the start only the ready bytes (the parent's wake-ups) are
	 * sync on 2.6.25-rc5; a child not asleep yet when the byte comes is not
	 * woken. Without the sync start: a few. */
	assert_true(tasks > 160);
	assert_true(sync >= 150);
	/* they have slept since they were created, cold: pulled to the parent */
	assert_true(migrate >= 100);
}

static void test_versions_and_presets(void **state)
{
	(void)state;
	assert_int_equal(kernel_version_code("2.6.25-rc5"), 20625);
	assert_int_equal(kernel_release_candidate("2.6.25-rc5"), 5);
	assert_int_equal(kernel_release_candidate("2.6.25"), 0);
	assert_false(kernel_has_2625rc7_sched(20624, 0));
	assert_false(kernel_has_2625rc7_sched(20625, 5));
	assert_true(kernel_has_2625rc7_sched(20625, 7));
	assert_true(kernel_has_2625rc7_sched(20625, 0));
	assert_true(kernel_has_2625rc7_sched(30200, 0));
	const char *gran[][2] = { { "2.6.25-rc5", "10000000" }, { "2.6.25", "5000000" },
				  { "2.6.26", "10000000" } };
	for (size_t i = 0; i < sizeof(gran) / sizeof(gran[0]); i++) {
		struct param_set ps;
		struct sim_err err;
		params_init(&ps, "kernel", kernel_param_defs);
		if (params_set(&ps, "kernel", gran[i][0], true, &err) < 0 ||
		    kernel_presets(&ps, &err) < 0)
			fail_msg("%s", err.msg);
		assert_true(param_double(&ps, "sched_wakeup_granularity_ns") ==
			    strtod(gran[i][1], NULL));
	}
}

int main(void)
{
	setenv("SLABSIM_MACHINES", "machines", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overlap_pulls_a_hot_wakee),
		cmocka_unit_test(test_before_rc7_a_hot_wakee_stays),
		cmocka_unit_test(test_before_rc7_a_cold_wakee_is_pulled),
		cmocka_unit_test(test_hackbench_start_is_a_sync_wakeup),
		cmocka_unit_test(test_versions_and_presets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
