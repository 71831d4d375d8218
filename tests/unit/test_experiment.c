/* test_experiment.c - experiment files and sweep statistics: the t-based
 * confidence interval (known values, and narrowing as replicates grow), JSON
 * paths, machine expressions, expansion into points, the key path of every
 * mistake, and seeds that depend on the point, not its place. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "run/experiment.h"
#include "run/machine_expr.h"
#include "report/summary.h"

static void test_stats_known_values(void **state)
{
	(void)state;
	const double x[] = { 1, 2, 3, 4, 5 };
	struct stat_summary s;
	summary_stats(x, 5, &s);
	assert_int_equal(s.n, 5);
	assert_float_equal(s.mean, 3.0, 1e-12);
	assert_float_equal(s.sd, 1.5811388300841898, 1e-12);
	/* t(0.975, 4) = 2.7764451051977987 */
	assert_float_equal(s.ci95, 2.7764451051977987 * 1.5811388300841898 / 2.23606797749979, 1e-9);
	summary_stats(x, 1, &s);
	assert_float_equal(s.mean, 1.0, 0);
	assert_float_equal(s.ci95, 0.0, 0);	/* one sample: no interval */
	summary_stats(x, 0, &s);
	assert_int_equal(s.n, 0);
}

/* The same population sampled with more replicates gives a narrower CI. */
static void test_ci_narrows_with_replicates(void **state)
{
	(void)state;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 42);
	static double x[2560];
	for (int i = 0; i < 2560; i++)
		x[i] = 17.5 + gsl_ran_gaussian(rng, 1.2);
	gsl_rng_free(rng);
	double last = 1e9;
	for (int n = 5; n <= 2560; n *= 4) {
		struct stat_summary s;
		summary_stats(x, n, &s);
		assert_true(s.ci95 < last);
		assert_true(s.mean - s.ci95 < 17.5 + 0.5 && s.mean + s.ci95 > 17.5 - 0.5);
		last = s.ci95;
	}
	assert_true(last < 0.08);	/* n = 1280: 1.96 * 1.2 / sqrt(1280) = 0.066 */
}

/* A sweep's table rounds the mean to its CI's two significant digits. */
static void test_format_ci(void **state)
{
	(void)state;
	char b[64];
	assert_string_equal(summary_format_ci(2.46361, 0.0251, b, sizeof(b)),
			    "       2.464 +- 0.025");
	assert_string_equal(summary_format_ci(17.24, 1.31, b, sizeof(b)), "        17.2 +- 1.3");
	assert_string_equal(summary_format_ci(12345.6, 234, b, sizeof(b)), "       12346 +- 234");
	assert_string_equal(summary_format_ci(1.5, 0, b, sizeof(b)), "         1.5 +- 0");
}

static void test_lookup_paths(void **state)
{
	(void)state;
	cJSON *j = cJSON_Parse("{\"result\": {\"sim_seconds\": 2.5, \"tests\": "
			       "[{\"alloc_cycles\": 96}, {\"alloc_cycles\": 7}]}, \"s\": \"x\"}");
	double v;
	assert_int_equal(summary_lookup(j, "result.sim_seconds", &v), 0);
	assert_float_equal(v, 2.5, 0);
	assert_int_equal(summary_lookup(j, "result.tests[1].alloc_cycles", &v), 0);
	assert_float_equal(v, 7, 0);
	assert_int_equal(summary_lookup(j, "result.tests[2].alloc_cycles", &v), -1);
	assert_int_equal(summary_lookup(j, "result.nothing", &v), -1);
	assert_int_equal(summary_lookup(j, "s", &v), -1);	/* not a number */
	assert_int_equal(summary_lookup(j, "result.tests[x]", &v), -1);
	cJSON_Delete(j);
	/* selectors: the first element whose members match, numbers as numbers */
	j = cJSON_Parse("{\"tests\": [{\"test\": 1, \"size\": 8, \"c\": 61}, "
			"{\"test\": 1, \"size\": 512, \"c\": 134}, {\"test\": 2, \"size\": 512, "
			"\"c\": 97}], \"locks\": [{\"name\": \"&n->list_lock [kmalloc-512]\", "
			"\"contentions\": 42}]}");
	assert_int_equal(summary_lookup(j, "tests[test=1,size=512].c", &v), 0);
	assert_float_equal(v, 134, 0);
	assert_int_equal(summary_lookup(j, "tests[size=512.0,test=2].c", &v), 0);
	assert_float_equal(v, 97, 0);
	assert_int_equal(summary_lookup(j, "tests[test=3].c", &v), -1);	/* no match */
	assert_int_equal(summary_lookup(j, "tests[test=x].c", &v), -1);	/* not a number */
	assert_int_equal(summary_lookup(j, "tests[test].c", &v), -1);
	assert_int_equal(summary_lookup(j, "locks[name=&n->list_lock [kmalloc-512]].contentions",
					 &v), 0);
	assert_float_equal(v, 42, 0);
	assert_int_equal(summary_lookup(j, "locks[name=&n->list_lock [kmalloc-512].contentions",
					 &v), -1);	/* unclosed */
	cJSON_Delete(j);
}

static void test_machine_expressions(void **state)
{
	(void)state;
	struct machine m;
	struct sim_err err;
	assert_int_equal(machine_load(&m, "nehalem-ep", &err), 0);
	long long v;
	assert_int_equal(machine_expr_eval("2*cpus_per_node", &m, &v, &err), 0);
	assert_int_equal(v, 16);
	assert_int_equal(machine_expr_eval(" (cpus + 4) / nodes - 1", &m, &v, &err), 0);
	assert_int_equal(v, 9);
	assert_int_equal(machine_expr_eval("-sockets*-3", &m, &v, &err), 0);
	assert_int_equal(v, 6);
	assert_int_equal(machine_expr_eval("2*cpus_per_socket", &m, &v, &err), -1);
	assert_non_null(strstr(err.msg, "unknown variable"));
	assert_int_equal(machine_expr_eval("cpus/0", &m, &v, &err), -1);
	assert_non_null(strstr(err.msg, "division by zero"));
	assert_int_equal(machine_expr_eval("(cpus", &m, &v, &err), -1);
	assert_int_equal(machine_expr_eval("cpus 2", &m, &v, &err), -1);
	assert_int_equal(machine_expr_eval("", &m, &v, &err), -1);
	machine_free(&m);
}

static const char good[] =
	"{ \"name\": \"t\", \"machines\": [\"tigerton\", \"core2-ep\"],"
	"  \"policies\": [\"slub\", {\"name\": \"slub\", \"label\": \"3.2\", \"set\": {\"kernel\": \"3.2\"}}],"
	"  \"workloads\": [\"hackbench 1\", {\"cmd\": \"hackbench 2\", \"machines\": [\"core2-ep\"]}],"
	"  \"fixed\": {\"loops\": 5},"
	"  \"axes\": [{\"param\": \"slub_min_objects\", \"from\": 4, \"to\": 32, \"double\": true},"
	"           {\"param\": \"mode\", \"values\": [\"process\", \"thread\"]}],"
	"  \"replicates\": 3, \"seed\": 9 }";

static void test_expand_points(void **state)
{
	(void)state;
	struct experiment e;
	struct sim_err err;
	assert_int_equal(experiment_parse(&e, "t.json", good, &err), 0);
	assert_int_equal(e.ndims, 5);
	assert_int_equal(e.dim[3].n, 4);	/* 4 8 16 32 */
	assert_string_equal(e.dim[3].v[3].label, "32");
	assert_int_equal(experiment_expand(&e, &err), 0);
	/* tigerton: 2 policies x 1 workload; core2-ep: 2 x 2; each x 4 x 2 */
	assert_int_equal(e.npoints, (2 + 4) * 4 * 2);
	assert_int_equal(experiment_runs(&e), e.npoints * 3);
	assert_string_equal(e.points[0].key, "machine=tigerton policy=slub workload=hackbench 1 "
			    "slub_min_objects=4 mode=process");
	const char *a[16];
	char buf[2048];
	int n = experiment_assigns(&e, &e.points[e.npoints - 1], a, 16, buf, sizeof(buf), &err);
	assert_int_equal(n, 4);	/* fixed, the policy's set, two axes */
	assert_string_equal(a[0], "loops=5");
	assert_string_equal(a[1], "kernel=3.2");
	assert_string_equal(a[3], "mode=thread");
	assert_string_equal(experiment_machine(&e, &e.points[e.npoints - 1]), "core2-ep");
	assert_string_equal(experiment_workload(&e, &e.points[e.npoints - 1]), "hackbench 2");
	/* seeds: distinct per run, and a point keeps its seeds when the file
	 * lists its values in another order */
	uint64_t s5 = experiment_run_seed(&e, 5), first = experiment_run_seed(&e, 0);
	for (int i = 1; i < experiment_runs(&e); i++)
		assert_true(experiment_run_seed(&e, i) != first);
	char *key5 = strdup(e.points[5 / 3].key);
	uint64_t digest = experiment_digest(&e);
	experiment_free(&e);
	char other[sizeof(good)];
	strcpy(other, good);
	memcpy(strstr(other, "\"process\", \"thread\""), "\"thread\", \"process\"", 19);
	assert_int_equal(experiment_parse(&e, "t.json", other, &err), 0);
	assert_int_equal(experiment_expand(&e, &err), 0);
	assert_true(experiment_digest(&e) != digest);
	int found = 0;
	for (int p = 0; p < e.npoints; p++)
		if (!strcmp(e.points[p].key, key5)) {
			assert_true(experiment_run_seed(&e, p * 3 + 5 % 3) == s5);
			found = 1;
		}
	assert_true(found);
	free(key5);
	experiment_free(&e);
}

/* Each mistake: its message names the file and the key path. */
static void expect_error(const char *text, const char *needle)
{
	struct experiment e;
	struct sim_err err;
	int rc = experiment_parse(&e, "x.json", text, &err);
	if (rc == 0)
		rc = experiment_expand(&e, &err);
	experiment_free(&e);
	assert_int_equal(rc, -1);
	if (!strstr(err.msg, needle) || strncmp(err.msg, "x.json: ", 8))
		fail_msg("'%s' does not say '%s'", err.msg, needle);
}

#define BASE "\"name\": \"b\", \"machines\": [\"tigerton\"], \"policies\": [\"slub\"], " \
	     "\"workloads\": [\"hackbench 1\"]"

static void test_errors_name_key_path(void **state)
{
	(void)state;
	expect_error("{" BASE ", \"axes\": [{\"param\": \"loops\", \"values\": [1], \"x\": 1}]}",
		     "axes[0].x: unknown key");
	/* the empty key: unknown, without reading past the valid keys (fuzzing
	 * found json_key_listed's loop stepping over the end of the list) */
	expect_error("{" BASE ", \"\": 1}", ": unknown key");
	expect_error("{" BASE ", \"axes\": [{\"param\": \"loops\", \"values\": [1], \"\": 1}]}",
		     "axes[0].: unknown key");
	expect_error("{" BASE ", \"axes\": [{\"param\": \"loops\", \"values\": []}]}",
		     "axes[0].values: empty axis");
	expect_error("{" BASE ", \"axes\": [{\"param\": \"loops\", \"from\": 1, \"to\": 5}]}",
		     "either \"step\" or \"double\"");
	expect_error("{" BASE ", \"axes\": [{\"param\": \"loops\", \"from\": 1, \"to\": 5, "
		     "\"step\": 0}]}", "axes[0].step: must be positive");
	expect_error("{" BASE ", \"replicates\": 0}", "replicates: expected an integer in [1, 10000]");
	expect_error("{" BASE ", \"seed\": -1}", "seed: expected an integer");
	expect_error("{" BASE ", \"fixed\": {\"loops\": null}}", "fixed.loops: expected a number");
	expect_error("{" BASE ", \"fixed\": {\"loops\": 0}}", "fixed.loops: loops=0");
	expect_error("{" BASE ", \"metrics\": [{\"name\": \"m\"}]}", "metrics[0].path: missing");
	expect_error("{" BASE ", \"plot\": {\"x\": \"nothing\"}}", "plot.x: no dimension");
	expect_error("{" BASE ", \"axes\": [{\"name\": \"v\", \"variants\": [{\"label\": \"a\"}]}]}",
		     "axes[0].variants[0].set: missing");
	expect_error("{" BASE ", \"axes\": [{\"param\": \"machine\", \"values\": [1]}, "
		     "{\"param\": \"loops\", \"values\": [1], \"name\": \"machine\"}]}",
		     "two dimensions are named 'machine'");
	expect_error("{\"name\": \"b\", \"machines\": [\"tigerton\"], \"policies\": [\"slub\"], "
		     "\"workloads\": [{\"cmd\": \"hackbench\", \"machines\": [\"core2-ep\"]}]}",
		     "leave no point");
	expect_error("{\"name\": \"b\", \"machines\": [\"tigerton\"], \"policies\": [\"slub\"], "
		     "\"workloads\": [\"pingpang\"]}", "workloads[0]: unknown workload 'pingpang'");
	expect_error("[1, 2]", "expected an object");
}

int main(void)
{
	setenv("SLABSIM_MACHINES", "machines", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats_known_values),
		cmocka_unit_test(test_ci_narrows_with_replicates),
		cmocka_unit_test(test_lookup_paths),
		cmocka_unit_test(test_format_ci),
		cmocka_unit_test(test_machine_expressions),
		cmocka_unit_test(test_expand_points),
		cmocka_unit_test(test_errors_name_key_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
