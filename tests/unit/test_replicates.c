/* test_replicates.c - replicates where they are needed: without a CI target
 * every point runs all its replicates; with one, a point starts with two,
 * adds one a round while its main metric's 95% CI is wider than the target
 * share of its mean, stops at the experiment's replicates, skips replicates
 * already tried (a crashed run stays NULL), and counts only runs that
 * finished with their invariants. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/replicates.h"
#include "run/experiment.h"

/* Two points (slub_min_objects 8 and 64) of up to 6 replicates: runs 0-5
 * are point 0's, 6-11 point 1's. */
static const char exp_text[] =
	"{ \"name\": \"reps\", \"machines\": [\"tigerton\"],"
	"  \"policies\": [\"slub\"], \"workloads\": [\"hackbench 1 process 5\"],"
	"  \"axes\": [ { \"param\": \"slub_min_objects\", \"values\": [8, 64] } ],"
	"  \"replicates\": 6, \"ci_target\": 0.05, \"seed\": 1 }";

#define RUNS 12

/* A finished run whose main metric (the simulated time) is `t`. */
static cJSON *run_of(double t, bool ok)
{
	char text[160];
	snprintf(text, sizeof(text), "{ \"result\": { \"sim_seconds\": %.17g }, \"invariants\": \"%s\" }",
		 t, ok ? "ok" : "lost an object");
	return cJSON_Parse(text);
}

/* One test's experiment, its runs (NULL: not done), what was handed out. */
struct fixture {
	struct experiment e;
	cJSON *runs[RUNS];
	bool tried[RUNS];
	int todo[RUNS];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct sim_err err;
	assert_non_null(f);
	assert_int_equal(experiment_parse(&f->e, "reps.json", exp_text, &err), 0);
	assert_int_equal(experiment_expand(&f->e, &err), 0);
	assert_int_equal(f->e.npoints, 2);
	assert_int_equal(experiment_runs(&f->e), RUNS);
	assert_float_equal(f->e.ci_target, 0.05, 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	for (int i = 0; i < RUNS; i++)
		cJSON_Delete(f->runs[i]);
	experiment_free(&f->e);
	free(f);
	return 0;
}

/* replicates_next on the fixture (it marks what it hands out as tried). */
static int next(struct fixture *f)
{
	return replicates_next(&f->e, f->runs, f->tried, f->todo);
}

static void test_fixed_count_without_target(void **state)
{
	struct fixture *f = *state;
	cJSON **runs = f->runs;
	int *todo = f->todo;
	f->e.ci_target = 0;
	runs[3] = run_of(1.0, true);	/* kept from before (--resume) */
	assert_int_equal(next(f), RUNS - 1);
	assert_int_equal(todo[0], 0);
	assert_int_equal(todo[3], 4);	/* run 3 is done: skipped */
	assert_int_equal(next(f), 0);
	assert_false(replicates_settled(&f->e, runs, 0));	/* five runs missing */
	for (int i = 0; i < RUNS; i++)
		if (!runs[i])
			runs[i] = run_of(1.0 + i, true);
	assert_true(replicates_settled(&f->e, runs, 0));
}

static void test_adds_until_within_target(void **state)
{
	struct fixture *f = *state;
	cJSON **runs = f->runs;
	int *todo = f->todo;
	/* round 1: two of each point */
	assert_int_equal(next(f), 4);
	int want1[] = { 0, 1, 6, 7 };
	for (int i = 0; i < 4; i++)
		assert_int_equal(todo[i], want1[i]);
	/* point 0 agrees to the digit (CI 0: settled); point 1 is spread */
	runs[0] = run_of(10.0, true), runs[1] = run_of(10.0, true);
	runs[6] = run_of(10.0, true), runs[7] = run_of(14.0, true);
	assert_true(replicates_settled(&f->e, runs, 0));
	assert_false(replicates_settled(&f->e, runs, 1));
	/* round 2: one more of point 1 only */
	assert_int_equal(next(f), 1);
	assert_int_equal(todo[0], 8);
	runs[8] = run_of(12.0, true);	/* 10, 14, 12: CI 5.0, over 0.6 */
	assert_int_equal(next(f), 1);
	assert_int_equal(todo[0], 9);
	runs[9] = run_of(12.0, true);
	/* 10, 14, 12, 12: mean 12, sd 1.63, CI 2.6: still over 0.6 */
	assert_int_equal(next(f), 1);
	assert_int_equal(todo[0], 10);
	runs[10] = run_of(12.0, true);
	assert_int_equal(next(f), 1);
	assert_int_equal(todo[0], 11);
	runs[11] = run_of(12.0, true);
	/* every replicate of point 1 tried: it stops, settled by count */
	assert_int_equal(next(f), 0);
	assert_true(replicates_settled(&f->e, runs, 1));
}

static void test_tight_spread_stops_early(void **state)
{
	struct fixture *f = *state;
	cJSON **runs = f->runs;
	int *todo = f->todo;
	assert_int_equal(next(f), 4);
	runs[0] = run_of(100.0, true), runs[1] = run_of(101.0, true);	/* CI 6.4: over 5.05 */
	runs[6] = run_of(100.0, true), runs[7] = run_of(100.5, true);	/* CI 3.2: within */
	assert_int_equal(next(f), 1);
	assert_int_equal(todo[0], 2);
	runs[2] = run_of(100.5, true);	/* sd 0.5, CI 1.24: within 5.03 */
	assert_int_equal(next(f), 0);
	assert_true(replicates_settled(&f->e, runs, 0) && replicates_settled(&f->e, runs, 1));
}

static void test_failed_and_crashed_runs(void **state)
{
	struct fixture *f = *state;
	cJSON **runs = f->runs;
	int *todo = f->todo;
	assert_int_equal(next(f), 4);
	/* run 0 broke an invariant (no value), run 1 crashed (stays NULL) */
	runs[0] = run_of(10.0, false);
	runs[6] = run_of(10.0, true), runs[7] = run_of(10.0, true);
	assert_false(replicates_settled(&f->e, runs, 0));
	/* point 0 has no good run: two more, past the tried 0 and 1 */
	assert_int_equal(next(f), 2);
	assert_int_equal(todo[0], 2);
	assert_int_equal(todo[1], 3);
}

int main(void)
{
	setenv("SLABSIM_MACHINES", "machines", 0);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fixed_count_without_target, setup, teardown),
		cmocka_unit_test_setup_teardown(test_adds_until_within_target, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tight_spread_stops_early, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_and_crashed_runs, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
