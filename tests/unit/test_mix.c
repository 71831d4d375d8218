/* test_mix.c - the cache-mix description reader (a good file, and every kind
 * of mistake with its message), the lifetime distributions' means and
 * medians, and whole mix and kbuild runs: every object freed once, by whom
 * the description says, at the rate it says. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <gsl/gsl_rng.h>

#include "run/run_core.h"
#include "engine/array_size.h"
#include "workloads/mix_spec.h"

static const char good[] =
	"{ \"description\": \"what this models\", \"tasks\": 8,\n"
	"  \"caches\": [\n"
	"    { \"name\": \"my_req\", \"size\": 192, \"kmalloc\": false, \"rate\": 200000,\n"
	"      \"lifetime\": { \"dist\": \"exponential\", \"mean_us\": 20 },\n"
	"      \"remote_cpu\": 0.10, \"remote_node\": 0.05 },\n"
	"    { \"name\": \"buf\", \"size\": 700, \"kmalloc\": true, \"rate\": 50000,\n"
	"      \"lifetime\": { \"dist\": \"lognormal\", \"median_us\": 100, \"sigma\": 1.0 } },\n"
	"    { \"name\": \"f\", \"size\": 8, \"rate\": 1,\n"
	"      \"lifetime\": { \"dist\": \"fixed\", \"us\": 0 } },\n"
	"    { \"name\": \"p\", \"size\": 4194304, \"rate\": 1,\n"
	"      \"lifetime\": { \"dist\": \"pareto\", \"shape\": 1.5, \"min_us\": 10 } } ] }\n";

static int parse(struct mix_spec *s, const char *text, struct sim_err *err)
{
	return mix_spec_parse(s, "my.json", text, strlen(text), err);
}

static void test_good_description(void **state)
{
	(void)state;
	static struct mix_spec s;
	struct sim_err err;
	if (parse(&s, good, &err) < 0)
		fail_msg("%s", err.msg);
	assert_string_equal(s.description, "what this models");
	assert_int_equal(s.tasks, 8);
	assert_int_equal(s.ncaches, 4);
	assert_string_equal(s.cache[0].name, "my_req");
	assert_int_equal(s.cache[0].size, 192);
	assert_false(s.cache[0].kmalloc);
	assert_true(s.cache[0].rate == 200000);
	assert_int_equal(s.cache[0].life.dist, MIX_EXPONENTIAL);
	assert_true(s.cache[0].life.a == 20);
	assert_true(s.cache[0].remote_cpu == 0.10 && s.cache[0].remote_node == 0.05);
	assert_true(s.cache[1].kmalloc);
	assert_int_equal(s.cache[1].life.dist, MIX_LOGNORMAL);
	assert_true(s.cache[1].life.a == 100 && s.cache[1].life.b == 1.0);
	assert_true(s.cache[1].remote_cpu == 0 && s.cache[1].remote_node == 0);
	assert_int_equal(s.cache[2].life.dist, MIX_FIXED);
	assert_int_equal(s.cache[3].life.dist, MIX_PARETO);
	assert_true(s.cache[3].life.a == 1.5 && s.cache[3].life.b == 10);
	assert_int_equal(s.cache[3].size, 4194304);
	/* tasks and description may be left out */
	const char *min = "{\"caches\":[{\"name\":\"a\",\"size\":8,\"rate\":1,"
			  "\"lifetime\":{\"dist\":\"fixed\",\"us\":1}}]}";
	assert_int_equal(parse(&s, min, &err), 0);
	assert_int_equal(s.tasks, 0);
	assert_string_equal(s.description, "");
}

/* The shipped examples read cleanly. */
static void test_example_files(void **state)
{
	(void)state;
	static struct mix_spec s;
	struct sim_err err;
	const char *files[] = { "configs/mix/example.json", "configs/mix/tbench.json" };
	for (int i = 0; i < 2; i++)
		if (mix_spec_read(&s, files[i], &err) < 0)
			fail_msg("%s", err.msg);
	assert_int_equal(mix_spec_read(&s, "configs/mix/no-such.json", &err), -1);
	assert_non_null(strstr(err.msg, "configs/mix/no-such.json: cannot read"));
}

/* A cache entry with `field` spliced in before the lifetime. */
#define C1(field, life) "{\"caches\":[{\"name\":\"a\",\"size\":8,\"rate\":1," field \
	"\"lifetime\":" life "}]}"
#define FIXED "{\"dist\":\"fixed\",\"us\":1}"

static const struct {
	const char *text, *msg;
} bad[] = {
	{ "{\"caches\": [", "my.json: line 1, column 12: not valid JSON" },
	{ "{\"caches\": [\n{\"name\": \"a\",}]}", "my.json: line 2, column 15: not valid JSON (from ']}')" },
	{ "", "my.json: empty" },
	{ "[1]", "my.json: expected a JSON object" },
	{ "{}", "my.json: caches: missing" },
	{ "{\"caches\": {}}", "my.json: caches: expected a list" },
	{ "{\"caches\": []}", "my.json: caches: empty" },
	{ "{\"caches\": [3]}", "my.json: caches[0]: expected an object" },
	{ "{\"caches\": [], \"duration\": 1}", "my.json: duration: unknown key (valid keys: "
	  "description tasks caches)" },
	{ "{\"description\": 3, \"caches\": []}", "my.json: description: expected a string" },
	{ "{\"tasks\": 0, \"caches\": []}", "my.json: tasks: must be 1 to 4096" },
	{ "{\"tasks\": 2.5, \"caches\": []}", "my.json: tasks: expected an integer, not 2.5" },
	{ C1("\"sise\":3,", FIXED), "my.json: caches[0].sise: unknown key (valid keys: name "
	  "size kmalloc rate lifetime remote_cpu remote_node)" },
	{ C1("\"size\":9,", FIXED), "my.json: caches[0].size: repeated key" },
	{ "{\"caches\":[{\"size\":8,\"rate\":1,\"lifetime\":" FIXED "}]}",
	  "my.json: caches[0].name: missing" },
	{ "{\"caches\":[{\"name\":\"a\",\"rate\":1,\"lifetime\":" FIXED "}]}",
	  "my.json: caches[0].size: missing" },
	{ "{\"caches\":[{\"name\":\"a\",\"size\":8,\"lifetime\":" FIXED "}]}",
	  "my.json: caches[0].rate: missing" },
	{ "{\"caches\":[{\"name\":\"a\",\"size\":8,\"rate\":1}]}",
	  "my.json: caches[0].lifetime: missing" },
	{ "{\"caches\":[{\"name\":3,\"size\":8,\"rate\":1,\"lifetime\":" FIXED "}]}",
	  "my.json: caches[0].name: expected a string" },
	{ "{\"caches\":[{\"name\":\"a\",\"size\":\"8\",\"rate\":1,\"lifetime\":" FIXED "}]}",
	  "my.json: caches[0].size: expected an integer" },
	{ "{\"caches\":[{\"name\":\"a\",\"size\":8.5,\"rate\":1,\"lifetime\":" FIXED "}]}",
	  "my.json: caches[0].size: expected an integer, not 8.5" },
	{ "{\"caches\":[{\"name\":\"a\",\"size\":0,\"rate\":1,\"lifetime\":" FIXED "}]}",
	  "my.json: caches[0].size: must be 1 to 4194304 bytes (4 MiB), not 0" },
	{ "{\"caches\":[{\"name\":\"a\",\"size\":4194305,\"rate\":1,\"lifetime\":" FIXED "}]}",
	  "my.json: caches[0].size: must be 1 to 4194304 bytes (4 MiB), not 4194305" },
	{ "{\"caches\":[{\"name\":\"a\",\"size\":8,\"rate\":0,\"lifetime\":" FIXED "}]}",
	  "my.json: caches[0].rate: must be > 0" },
	{ "{\"caches\":[{\"name\":\"a\",\"size\":8,\"rate\":-5,\"lifetime\":" FIXED "}]}",
	  "my.json: caches[0].rate: must be > 0 allocations per second (and at most 1e12), not -5" },
	{ "{\"caches\":[{\"name\":\"a\",\"size\":8,\"rate\":\"fast\",\"lifetime\":" FIXED "}]}",
	  "my.json: caches[0].rate: expected a number" },
	{ C1("\"kmalloc\":1,", FIXED), "my.json: caches[0].kmalloc: expected true or false" },
	{ C1("\"remote_cpu\":1.5,", FIXED),
	  "my.json: caches[0].remote_cpu: must be a share in [0, 1], not 1.5" },
	{ C1("\"remote_node\":-0.1,", FIXED),
	  "my.json: caches[0].remote_node: must be a share in [0, 1], not -0.1" },
	{ C1("\"remote_cpu\":0.6,\"remote_node\":0.5,", FIXED),
	  "my.json: caches[0]: remote_cpu + remote_node = 1.1" },
	{ C1("", "3"), "my.json: caches[0].lifetime: expected an object" },
	{ C1("", "{\"us\":3}"), "my.json: caches[0].lifetime.dist: missing (one of "
	  "fixed|exponential|lognormal|pareto is required)" },
	{ "{\"caches\":[{\"name\":\"a\",\"size\":8,\"rate\":1,\"lifetime\":" FIXED "},"
	  "{\"name\":\"b\",\"size\":8,\"rate\":1,\"lifetime\":{\"dist\":\"gamma\",\"k\":2}}]}",
	  "my.json: caches[1].lifetime.dist: unknown distribution 'gamma' "
	  "(fixed|exponential|lognormal|pareto)" },
	{ C1("", "{\"dist\":\"fixed\"}"),
	  "my.json: caches[0].lifetime.us: missing (fixed needs us)" },
	{ C1("", "{\"dist\":\"exponential\",\"median_us\":3}"),
	  "my.json: caches[0].lifetime.median_us: unknown key (valid keys: dist mean_us)" },
	{ C1("", "{\"dist\":\"exponential\"}"),
	  "my.json: caches[0].lifetime.mean_us: missing (exponential needs mean_us)" },
	{ C1("", "{\"dist\":\"lognormal\",\"median_us\":3}"),
	  "my.json: caches[0].lifetime.sigma: missing (lognormal needs median_us and sigma)" },
	{ C1("", "{\"dist\":\"pareto\",\"shape\":2}"),
	  "my.json: caches[0].lifetime.min_us: missing (pareto needs shape and min_us)" },
	{ C1("", "{\"dist\":\"exponential\",\"mean_us\":0}"),
	  "my.json: caches[0].lifetime.mean_us: must be > 0" },
	{ C1("", "{\"dist\":\"fixed\",\"us\":-1}"), "my.json: caches[0].lifetime.us: must be >= 0" },
	{ C1("", "{\"dist\":\"lognormal\",\"median_us\":3,\"sigma\":-1}"),
	  "my.json: caches[0].lifetime.sigma: must be in [0, 10], not -1" },
	{ C1("", "{\"dist\":\"pareto\",\"shape\":0,\"min_us\":1}"),
	  "my.json: caches[0].lifetime.shape: must be in (0, 1000], not 0" },
	{ C1("", "{\"dist\":\"pareto\",\"shape\":2,\"min_us\":\"1\"}"),
	  "my.json: caches[0].lifetime.min_us: expected a number" },
	{ "{\"caches\":[{\"name\":\"a b\",\"size\":8,\"rate\":1,\"lifetime\":" FIXED "}]}",
	  "my.json: caches[0].name: 'a b': use letters" },
	{ "{\"caches\":[{\"name\":\"abcdefghijabcdefghijabcdefghijab\",\"size\":8,\"rate\":1,"
	  "\"lifetime\":" FIXED "}]}", "my.json: caches[0].name: longer than 31 characters" },
	{ "{\"caches\":[{\"name\":\"a\",\"size\":8,\"rate\":1,\"lifetime\":" FIXED "},"
	  "{\"name\":\"a\",\"size\":16,\"rate\":1,\"lifetime\":" FIXED "}]}",
	  "my.json: caches[1].name: 'a' repeats caches[0].name" },
};

static void test_bad_descriptions(void **state)
{
	(void)state;
	static struct mix_spec s;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct sim_err err = { "" };
		if (parse(&s, bad[i].text, &err) != -1)
			fail_msg("accepted: %s", bad[i].text);
		if (!strstr(err.msg, bad[i].msg))
			fail_msg("for %s\n  said:   %s\n  wanted: %s", bad[i].text, err.msg,
				 bad[i].msg);
	}
}

/* A description built in C goes through the same checks. */
static void test_check_built_in(void **state)
{
	(void)state;
	static struct mix_spec s;
	struct sim_err err;
	memset(&s, 0, sizeof(s));
	s.ncaches = 1;
	snprintf(s.cache[0].name, sizeof(s.cache[0].name), "x");
	s.cache[0].size = 64;
	s.cache[0].rate = 10;
	s.cache[0].life = (struct mix_lifetime){ MIX_EXPONENTIAL, 5, 0 };
	assert_int_equal(mix_spec_check(&s, "kbuild", &err), 0);
	s.cache[0].remote_cpu = 0.7;
	s.cache[0].remote_node = 0.7;
	assert_int_equal(mix_spec_check(&s, "kbuild", &err), -1);
	assert_non_null(strstr(err.msg, "kbuild: caches[0]: remote_cpu + remote_node = 1.4"));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* 20000 draws with a fixed seed: mean (and median) within a few %. */
static void draws(const struct mix_lifetime *l, double *mean, double *median, double *min)
{
	enum { N = 20000 };
	static double v[N];
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 12345);
	double sum = 0;
	for (int i = 0; i < N; i++)
		sum += v[i] = mix_lifetime_us(l, r);
	gsl_rng_free(r);
	qsort(v, N, sizeof(v[0]), cmp_double);
	*mean = sum / N;
	*median = (v[N / 2 - 1] + v[N / 2]) / 2;
	*min = v[0];
}

static bool near(double x, double want, double tol)
{
	return x > want * (1 - tol) && x < want * (1 + tol);
}

static void test_distributions(void **state)
{
	(void)state;
	double mean, median, min;
	struct mix_lifetime fixed = { MIX_FIXED, 7, 0 };
	draws(&fixed, &mean, &median, &min);
	assert_true(mean == 7 && median == 7 && min == 7);
	assert_true(mix_lifetime_mean_us(&fixed) == 7);

	struct mix_lifetime ex = { MIX_EXPONENTIAL, 20, 0 };
	draws(&ex, &mean, &median, &min);
	printf("  exponential(20): mean %.3f median %.3f (ln 2 * 20 = %.3f)\n", mean, median,
	       20 * 0.693147);
	assert_true(near(mean, 20, 0.03));
	assert_true(near(median, 20 * 0.693147, 0.04));
	assert_true(mix_lifetime_mean_us(&ex) == 20);

	struct mix_lifetime ln = { MIX_LOGNORMAL, 100, 1.0 };
	draws(&ln, &mean, &median, &min);
	printf("  lognormal(100, 1): mean %.3f (want %.3f) median %.3f\n", mean,
	       mix_lifetime_mean_us(&ln), median);
	assert_true(near(median, 100, 0.04));
	assert_true(near(mean, 100 * 1.648721, 0.04));
	assert_true(near(mix_lifetime_mean_us(&ln), 164.8721, 1e-4));

	struct mix_lifetime pa = { MIX_PARETO, 3, 10 };
	draws(&pa, &mean, &median, &min);
	printf("  pareto(3, 10): mean %.3f (want 15) median %.3f (want %.3f) min %.3f\n", mean,
	       median, 10 * 1.259921, min);
	assert_true(min >= 10);
	assert_true(near(mean, 15, 0.03));
	assert_true(near(median, 10 * 1.259921, 0.03));	/* 10 * 2^(1/3) */
	assert_true(mix_lifetime_mean_us(&pa) == 15);
	struct mix_lifetime heavy = { MIX_PARETO, 1, 10 };
	assert_true(mix_lifetime_mean_us(&heavy) > 1e300);
}

/* A whole run; every invariant must hold. The result's "frees" in *frees. */
static double run_mix(const char *machine, const char *policy, const char *wl, cJSON **out)
{
	static struct run r;
	struct run_config cfg = { .machine = machine, .policy = policy, .workload = wl, .seed = 3 };
	struct sim_err err;
	if (run_configure(&r, &cfg, &err) < 0)
		fail_msg("%s", err.msg);
	int rc = run_execute(&r, &err);
	if (rc != 0)
		fail_msg("%s: %s", wl, rc < 0 ? err.msg : r.invariants_msg);
	*out = cJSON_Duplicate(r.res.extra, 1);
	double allocs = cJSON_GetObjectItem(r.res.extra, "allocations")->valuedouble;
	run_free(&r);
	return allocs;
}

static double frees(const cJSON *x, const char *how)
{
	return cJSON_GetObjectItem(cJSON_GetObjectItem(x, "frees"), how)->valuedouble;
}

/* Rate, shares and hand-offs: 4 tasks on 2 nodes at 100,000 allocations/s
 * for 5 ms make ~2000 allocations; half are handed to another CPU of the
 * node, a quarter to another node. */
static void test_run_shares(void **state)
{
	(void)state;
	char path[] = "/tmp/test_mix.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	const char *text = "{\"tasks\":4,\"caches\":[{\"name\":\"t_obj\",\"size\":100,"
			   "\"rate\":100000,\"lifetime\":{\"dist\":\"exponential\",\"mean_us\":30},"
			   "\"remote_cpu\":0.5,\"remote_node\":0.25}]}";
	assert_true(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	char wl[128];
	snprintf(wl, sizeof(wl), "mix %s duration_ms=5", path);
	cJSON *x;
	double n = run_mix("nehalem-ep", "slub", wl, &x);
	printf("  %g allocations: local %g remote_cpu %g remote_node %g unavailable %g\n", n,
	       frees(x, "local"), frees(x, "remote_cpu"), frees(x, "remote_node"),
	       frees(x, "remote_unavailable"));
	assert_true(n > 1800 && n < 2100);
	assert_true(frees(x, "local") + frees(x, "remote_cpu") + frees(x, "remote_node") +
		    frees(x, "remote_unavailable") == n);
	assert_true(near(frees(x, "remote_cpu"), 0.5 * n, 0.1));
	assert_true(near(frees(x, "remote_node"), 0.25 * n, 0.15));
	assert_true(frees(x, "remote_unavailable") < 0.02 * n);
	cJSON_Delete(x);
	/* one node: the other-node share cannot be handed off */
	n = run_mix("core2-ep", "slab", wl, &x);
	assert_true(frees(x, "remote_node") == 0);
	assert_true(near(frees(x, "remote_unavailable"), 0.25 * n, 0.15));
	cJSON_Delete(x);
	unlink(path);
}

/* kbuild: every cache used in its published proportion. */
static void test_kbuild_run(void **state)
{
	(void)state;
	cJSON *x;
	double n = run_mix("core2-ep", "slqb", "kbuild duration_ms=20", &x);
	const cJSON *caches = cJSON_GetObjectItem(x, "caches");
	assert_int_equal(cJSON_GetArraySize(caches), 6);
	double names = cJSON_GetObjectItem(cJSON_GetArrayItem(caches, 0), "allocs")->valuedouble;
	printf("  kbuild: %g allocations, names_cache %g (want %.0f)\n", n, names,
	       n * 11.7 / 36.3);
	assert_true(near(names, n * 11.7 / 36.3, 0.1));
	cJSON_Delete(x);
}

int main(void)
{
	setenv("SLABSIM_MACHINES", "machines", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_description),
		cmocka_unit_test(test_example_files),
		cmocka_unit_test(test_bad_descriptions),
		cmocka_unit_test(test_check_built_in),
		cmocka_unit_test(test_distributions),
		cmocka_unit_test(test_run_shares),
		cmocka_unit_test(test_kbuild_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
