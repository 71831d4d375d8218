/* test_tune.c - the tuner's search without a command line: its grid, a
 * round's cut (the better half, and from 4 replicates those within the
 * best's CI), the best, the knee and the front on synthetic values; a real
 * search on tiny hackbench runs (the values each round keeps, the runs each
 * value got, the winner); a budget cut replicate by replicate; failed runs;
 * bad options answered with a message. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "study/tune.h"
#include "scratch.h"

/* What the progress callbacks saw. */
struct seen {
	char param[64];
	int n, failed, rounds;
	double lo, hi;
	int round_runs[8], round_left[8];
};

/* The search's grid, as it starts. */
static void saw_start(void *ctx, const char *param, int n, double lo, double hi)
{
	struct seen *s = ctx;
	snprintf(s->param, sizeof(s->param), "%s", param);
	s->n = n;
	s->lo = lo;
	s->hi = hi;
}

/* A failed run, counted. */
static void saw_failure(void *ctx, int run, const char *param, double value, int rep,
			const char *why)
{
	struct seen *s = ctx;
	(void)run, (void)param, (void)value, (void)rep;
	assert_non_null(why);
	s->failed++;
}

/* A round's runs and values left, in order. */
static void saw_round(void *ctx, int round, int runs, int left)
{
	struct seen *s = ctx;
	assert_int_equal(round, s->rounds + 1);
	assert_true(s->rounds < 8);
	s->round_runs[s->rounds] = runs;
	s->round_left[s->rounds++] = left;
}

static char tmpdir[64];

/* A scratch folder for a test's results, removed after it. */
static int make_tmp(void **state)
{
	(void)state;
	return scratch_make(tmpdir, sizeof(tmpdir), "test_tune");
}

static int remove_tmp(void **state)
{
	(void)state;
	return scratch_remove(tmpdir);
}

/* Options of a tiny search (runs of a few milliseconds) into the scratch
 * folder, reporting to S. */
static struct tune_opts tiny_opts(struct seen *s, char *out, size_t osize)
{
	snprintf(out, osize, "%s/t", tmpdir);
	*s = (struct seen){ 0 };
	return (struct tune_opts){
		.machine = "tigerton", .policy = "slub", .workload = "hackbench 2 process 10",
		.range = "slub_min_objects=4..64", .objective = TUNE_MEMORY, .budget = 40,
		.grid = 5, .max_replicates = 4, .jobs = 2, .seed = 1, .out = out,
		.progress = { saw_start, saw_failure, saw_round, s },
	};
}

/* A point of replicates X[0..n) (times, and memory the same) alive. */
static struct tune_point point(double value, const double *x, int n)
{
	struct tune_point p = { .value = value, .reps = n, .alive = true };
	for (int i = 0; i < n; i++)
		p.t[i] = p.mem[i] = x[i];
	return p;
}

/* Geometric when HI/LO >= 4, linear below; whole numbers (repeats dropped)
 * unless a bound has a fraction; no range, a reversed one: -1. */
static void test_grid(void **state)
{
	(void)state;
	char param[64];
	double v[TUNE_MAX_GRID];
	assert_int_equal(tune_make_grid("slub_min_objects=4..64", param, sizeof(param), v, 5), 5);
	assert_string_equal(param, "slub_min_objects");
	const double geo[] = { 4, 8, 16, 32, 64 };
	for (int i = 0; i < 5; i++)
		assert_float_equal(v[i], geo[i], 1e-12);
	/* linear 2..5 in 9 steps, rounded: 2 2 3 3 4 4 4 5 5 -> 2 3 4 5 */
	assert_int_equal(tune_make_grid("x=2..5", param, sizeof(param), v, 9), 4);
	assert_float_equal(v[0], 2, 0);
	assert_float_equal(v[3], 5, 0);
	assert_int_equal(tune_make_grid("x=0.5..1.5", param, sizeof(param), v, 3), 3);
	assert_float_equal(v[1], 1.0, 1e-12);
	assert_int_equal(tune_make_grid("x=4..4.5", param, sizeof(param), v, 9), 9);
	assert_float_equal(v[1], 4.0625, 1e-12);
	assert_int_equal(tune_make_grid("x=64..4", param, sizeof(param), v, 5), -1);
	assert_int_equal(tune_make_grid("x=8", param, sizeof(param), v, 5), -1);
	assert_int_equal(tune_make_grid("=1..4", param, sizeof(param), v, 5), -1);
	assert_int_equal(tune_make_grid("x=1..4y", param, sizeof(param), v, 5), -1);
}

/* With 2 replicates a round keeps the better half (rounded up) by mean;
 * with 4 also those within the best's 95% CI; a dead point stays dead. */
static void test_halve(void **state)
{
	(void)state;
	struct tune_point p[5];
	const double two[5][2] = { { 3, 3 }, { 1, 1 }, { 2, 2 }, { 5, 5 }, { 4, 4 } };
	for (int i = 0; i < 5; i++)
		p[i] = point(i, two[i], 2);
	assert_int_equal(tune_halve(p, 5, false), 3);
	const bool kept[5] = { true, true, true, false, false };
	for (int i = 0; i < 5; i++)
		assert_int_equal(p[i].alive, kept[i]);
	assert_float_equal(p[1].mean, 1, 1e-12);
	assert_float_equal(p[1].ci, 0, 1e-12);

	/* the best, 1 +- 3.182 x 0.1633 / 2 = 0.2598; 1.15 is within it, 5 is not;
	 * point 4 (mean 0.5) was cut before and is not counted */
	const double four[5][4] = { { 1, 1.2, 0.8, 1 }, { 1.1, 1.1, 1.1, 1.1 },
				    { 1.15, 1.15, 1.15, 1.15 }, { 5, 5, 5, 5 },
				    { 0.5, 0.5, 0.5, 0.5 } };
	for (int i = 0; i < 5; i++)
		p[i] = point(i, four[i], 4);
	p[4].alive = false;
	assert_int_equal(tune_halve(p, 5, false), 3);
	assert_float_equal(p[0].ci, 0.2598, 1e-4);
	assert_true(p[0].alive && p[1].alive && p[2].alive && !p[3].alive && !p[4].alive);

	/* the memory objective ranks by peak memory: times reversed change nothing */
	for (int i = 0; i < 5; i++) {
		p[i] = point(i, two[i], 2);
		for (int r = 0; r < 2; r++)
			p[i].t[r] = 10 - p[i].mem[r];
	}
	assert_int_equal(tune_halve(p, 5, true), 3);
	for (int i = 0; i < 5; i++)
		assert_int_equal(p[i].alive, kept[i]);
}

/* The best among the alive (or all) run; the knee the smallest value within
 * its CI; the front of time against memory. */
static void test_best_knee_front(void **state)
{
	(void)state;
	struct tune_point p[4] = {
		{ .value = 4, .reps = 2, .mean = 1.05, .mem_mean = 1, .alive = false },
		{ .value = 8, .reps = 4, .mean = 1.00, .ci = 0.1, .mem_mean = 2, .alive = true },
		{ .value = 16, .reps = 4, .mean = 0.98, .ci = 0.01, .mem_mean = 3, .alive = true },
		{ .value = 32, .reps = 0, .mean = 0, .alive = true },	/* never run */
	};
	assert_ptr_equal(tune_best(p, 4, true), &p[2]);
	assert_ptr_equal(tune_best(p, 4, false), &p[2]);
	p[2].alive = false;
	assert_ptr_equal(tune_best(p, 4, true), &p[1]);
	/* within 1.00 + 0.1: 4 (1.05) is the smallest */
	assert_ptr_equal(tune_knee(p, 4, &p[1]), &p[0]);
	/* within 0.98 + 0.01: only 16 itself */
	assert_ptr_equal(tune_knee(p, 4, &p[2]), &p[2]);
	assert_null(tune_knee(p, 4, NULL));
	/* each is faster or smaller than the others: all on the front */
	for (int i = 0; i < 3; i++)
		assert_true(tune_on_front(p, 4, &p[i]));
	p[1].mean = 1.1;	/* now slower and bigger than 4 */
	assert_false(tune_on_front(p, 4, &p[1]));
	assert_true(tune_on_front(p, 4, &p[0]));
}

/* Peak slab memory of slub_min_objects 4..64 on hackbench: round 1 runs 2
 * replicates of the 5 values and keeps 3 (4, 8, 16); round 2 gives those
 * 2 more and keeps 4 and 8; the least memory is at 4. */
static void test_search(void **state)
{
	(void)state;
	struct seen s;
	char out[128];
	struct tune_opts o = tiny_opts(&s, out, sizeof(out));
	struct sim_err err;
	struct tune_result *r = tune_run(&o, &err);
	assert_non_null(r);
	assert_string_equal(s.param, "slub_min_objects");
	assert_int_equal(s.n, 5);
	assert_float_equal(s.lo, 4, 0);
	assert_float_equal(s.hi, 64, 0);
	assert_int_equal(r->failed, 0);
	assert_int_equal(s.failed, 0);
	assert_int_equal(r->rounds, 2);
	assert_int_equal(s.rounds, 2);
	assert_int_equal(s.round_runs[0], 10);
	assert_int_equal(s.round_left[0], 3);
	assert_int_equal(s.round_runs[1], 6);
	assert_int_equal(s.round_left[1], 2);
	assert_int_equal(r->runs_used, 16);
	const int reps[5] = { 4, 4, 4, 2, 2 };
	const bool alive[5] = { true, true, false, false, false };
	for (int i = 0; i < 5; i++) {
		assert_int_equal(r->p[i].reps, reps[i]);
		assert_int_equal(r->p[i].alive, alive[i]);
		assert_true(r->p[i].mean > 0);
	}
	assert_non_null(r->best);
	assert_float_equal(r->best->value, 4, 0);
	assert_ptr_equal(r->knee, r->best);
	assert_string_equal(r->dir, out);
	assert_int_equal(access(r->experiment_path, R_OK), 0);
	/* every run's line in runs.jsonl */
	char path[256];
	snprintf(path, sizeof(path), "%s/runs.jsonl", out);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	int lines = 0;
	for (int c; (c = fgetc(f)) != EOF;)
		lines += c == '\n';
	fclose(f);
	assert_int_equal(lines, 16);
	tune_result_free(r);
}

/* A budget of 7 cuts round 1 replicate by replicate: every value its
 * first, the first two their second; the search stops there. */
static void test_budget_cut(void **state)
{
	(void)state;
	struct seen s;
	char out[128];
	struct tune_opts o = tiny_opts(&s, out, sizeof(out));
	o.budget = 7;
	o.objective = TUNE_TIME;
	struct sim_err err;
	struct tune_result *r = tune_run(&o, &err);
	assert_non_null(r);
	assert_int_equal(r->runs_used, 7);
	assert_int_equal(r->rounds, 1);
	assert_int_equal(s.round_runs[0], 7);
	const int reps[5] = { 2, 2, 1, 1, 1 };
	for (int i = 0; i < 5; i++)
		assert_int_equal(r->p[i].reps, reps[i]);
	assert_non_null(r->best);
	tune_result_free(r);
}

/* Runs that fail are counted and reported, and there is no best. */
static void test_failed_runs(void **state)
{
	(void)state;
	struct seen s;
	char out[128];
	struct tune_opts o = tiny_opts(&s, out, sizeof(out));
	o.workload = "trace /nonexistent/trace";
	o.grid = 2;
	o.max_replicates = 2;
	o.jobs = 1;
	struct sim_err err;
	struct tune_result *r = tune_run(&o, &err);
	assert_non_null(r);
	assert_int_equal(r->failed, 4);
	assert_int_equal(s.failed, 4);
	assert_int_equal(r->rounds, 1);
	assert_int_equal(s.rounds, 0);	/* no round report after a failure */
	assert_null(r->best);
	tune_result_free(r);
}

/* Bad options: NULL and a message saying what is wrong. */
static void test_bad_options(void **state)
{
	(void)state;
	struct seen s;
	char out[128];
	struct sim_err err;
	struct tune_opts o = tiny_opts(&s, out, sizeof(out));
	o.range = "slub_min_objects=64..4";
	assert_null(tune_run(&o, &err));
	assert_string_equal(err.msg, "'slub_min_objects=64..4': expected PARAM=LO..HI with LO < HI "
			    "and at least two values between");
	o = tiny_opts(&s, out, sizeof(out));
	o.range = NULL;
	assert_null(tune_run(&o, &err));
	assert_non_null(strstr(err.msg, "no range to search"));
	o = tiny_opts(&s, out, sizeof(out));
	o.grid = 1;
	assert_null(tune_run(&o, &err));
	assert_string_equal(err.msg, "--grid and --replicates must be at least 2");
	o = tiny_opts(&s, out, sizeof(out));
	o.max_replicates = TUNE_MAX_REPLICATES + 1;
	assert_null(tune_run(&o, &err));
	assert_string_equal(err.msg, "--grid 5, --replicates 65: at most 32 and 64");
	o = tiny_opts(&s, out, sizeof(out));
	o.budget = 0;
	assert_null(tune_run(&o, &err));
	assert_string_equal(err.msg, "--budget 0, -j 2: expected at least 1");
	o = tiny_opts(&s, out, sizeof(out));
	o.machine = NULL;
	assert_null(tune_run(&o, &err));
	assert_non_null(strstr(err.msg, "are required"));
	/* a parameter no model knows: the experiment says so */
	o = tiny_opts(&s, out, sizeof(out));
	o.range = "colour=1..4";
	assert_null(tune_run(&o, &err));
	assert_non_null(strstr(err.msg, "unknown parameter 'colour'"));
	assert_int_equal(s.rounds, 0);
}

int main(void)
{
	setenv("SLABSIM_MACHINES", "machines", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grid),
		cmocka_unit_test(test_halve),
		cmocka_unit_test(test_best_knee_front),
		cmocka_unit_test_setup_teardown(test_search, make_tmp, remove_tmp),
		cmocka_unit_test_setup_teardown(test_budget_cut, make_tmp, remove_tmp),
		cmocka_unit_test_setup_teardown(test_failed_runs, make_tmp, remove_tmp),
		cmocka_unit_test_setup_teardown(test_bad_options, make_tmp, remove_tmp),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
