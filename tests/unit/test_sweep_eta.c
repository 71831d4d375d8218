/* test_sweep_eta.c - the sweep's time left: each run to do is predicted from
 * its point's finished runs, else its machine's, else every machine's scaled
 * by the fourth root of the CPU count; runs of another shard and runs
 * already done are not counted; the workers share what is left. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "study/sweep_eta.h"
#include "run/experiment.h"

/* 2 machines (16 and 384 CPUs) x 2 settings, 2 replicates: runs 0-3 on
 * tigerton (points 0 and 1), runs 4-7 on epyc-genoa-2s (points 2 and 3). */
static const char exp_text[] =
	"{ \"name\": \"eta\", \"machines\": [\"tigerton\", \"epyc-genoa-2s\"],"
	"  \"policies\": [\"slub\"], \"workloads\": [\"hackbench 1 process 5\"],"
	"  \"axes\": [ { \"param\": \"slub_min_objects\", \"values\": [8, 64] } ],"
	"  \"replicates\": 2, \"seed\": 1 }";

static cJSON *finished(double wall)
{
	char text[128];
	snprintf(text, sizeof(text), "{ \"result\": { \"wall_seconds\": %g } }", wall);
	return cJSON_Parse(text);
}

static void setup_sweep(struct experiment *e, struct sweep_eta *eta)
{
	struct sim_err err;
	assert_int_equal(experiment_parse(e, "eta.json", exp_text, &err), 0);
	assert_int_equal(experiment_expand(e, &err), 0);
	assert_int_equal(e->npoints, 4);
	assert_string_equal(experiment_machine(e, &e->points[0]), "tigerton");
	assert_string_equal(experiment_machine(e, &e->points[2]), "epyc-genoa-2s");
	assert_int_equal(sweep_eta_init(eta, e, &err), 0);
	for (int r = 0; r < experiment_runs(e); r++)
		sweep_eta_mark(eta, r, 1);
}

static void test_machine_weight(void **state)
{
	(void)state;
	assert_float_equal(sweep_eta_machine_weight(16), 2.0, 1e-12);
	assert_float_equal(sweep_eta_machine_weight(256), 4.0, 1e-12);
	assert_float_equal(sweep_eta_machine_weight(0), 1.0, 1e-12);
}

static void test_nearest_relatives(void **state)
{
	(void)state;
	struct experiment e;
	struct sweep_eta eta;
	setup_sweep(&e, &eta);
	cJSON *runs[8] = { 0 };
	assert_true(sweep_eta_seconds(&eta, runs, 1) < 0);	/* nothing to go by */

	/* run 0 (tigerton, point 0) took 100 s: its replicate, run 1, is
	 * predicted 100; point 1 shares its machine: 100 each; genoa's four
	 * runs 100 x (384/16)^(1/4) each */
	runs[0] = finished(100);
	sweep_eta_mark(&eta, 0, 2);
	double g = 100 * sweep_eta_machine_weight(384) / sweep_eta_machine_weight(16);
	assert_float_equal(sweep_eta_seconds(&eta, runs, 1), 3 * 100 + 4 * g, 1e-6);
	assert_float_equal(sweep_eta_seconds(&eta, runs, 2), (3 * 100 + 4 * g) / 2, 1e-6);

	/* a genoa run of point 3 took 50 s: point 3's other run 50, point 2's
	 * two take their machine's mean (50) */
	runs[6] = finished(50);
	sweep_eta_mark(&eta, 6, 2);
	assert_float_equal(sweep_eta_seconds(&eta, runs, 1), 3 * 100 + 3 * 50, 1e-6);

	/* point 0's second run took 300 s: the point's mean is 200, point 1
	 * takes tigerton's mean (200) */
	runs[1] = finished(300);
	sweep_eta_mark(&eta, 1, 2);
	assert_float_equal(sweep_eta_seconds(&eta, runs, 1), 2 * 200 + 3 * 50, 1e-6);

	/* a run that ended without a result is not waited for */
	sweep_eta_mark(&eta, 2, 2);
	assert_float_equal(sweep_eta_seconds(&eta, runs, 1), 200 + 3 * 50, 1e-6);

	/* more workers than runs left: the longest wait is one run each */
	for (int r = 3; r < 8; r++)
		if (r != 7)
			sweep_eta_mark(&eta, r, 2);
	assert_float_equal(sweep_eta_seconds(&eta, runs, 8), 50, 1e-6);
	sweep_eta_mark(&eta, 7, 2);
	assert_float_equal(sweep_eta_seconds(&eta, runs, 8), 0, 1e-12);

	for (int r = 0; r < 8; r++)
		cJSON_Delete(runs[r]);
	sweep_eta_free(&eta);
	experiment_free(&e);
}

/* A shard counts only its own runs; runs done before (--resume) count as
 * finished relatives. */
static void test_shard_and_resume(void **state)
{
	(void)state;
	struct experiment e;
	struct sim_err err;
	struct sweep_eta eta;
	assert_int_equal(experiment_parse(&e, "eta.json", exp_text, &err), 0);
	assert_int_equal(experiment_expand(&e, &err), 0);
	assert_int_equal(sweep_eta_init(&eta, &e, &err), 0);
	cJSON *runs[8] = { 0 };
	runs[4] = finished(80);	/* from an earlier sweep: not marked */
	for (int r = 0; r < 8; r += 2)	/* shard 0/2 */
		if (!runs[r])
			sweep_eta_mark(&eta, r, 1);
	double t = 80 * sweep_eta_machine_weight(16) / sweep_eta_machine_weight(384);
	assert_float_equal(sweep_eta_seconds(&eta, runs, 1), 2 * t + 80, 1e-6);
	cJSON_Delete(runs[4]);
	sweep_eta_free(&eta);
	experiment_free(&e);
}

int main(void)
{
	setenv("SLABSIM_MACHINES", "machines", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_machine_weight),
		cmocka_unit_test(test_nearest_relatives),
		cmocka_unit_test(test_shard_and_resume),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
