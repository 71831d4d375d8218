/* test_fault_inject.c - should_fail() as lib/fault-inject.c decides: the
 * boot parameter's four figures, times, space, interval and probability,
 * each on its own and in the kernel's order; refused specifications. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/fault_inject.h"

static gsl_rng *rng;

static int fails(struct fault_attr *a, int calls, size_t size)
{
	int n = 0;
	for (int i = 0; i < calls; i++)
		n += should_fail(a, rng, size);
	return n;
}

static struct fault_attr attr(const char *spec)
{
	struct fault_attr a;
	struct sim_err err;
	assert_int_equal(fault_attr_parse(&a, "failslab", spec, &err), 0);
	return a;
}

static void test_off(void **state)
{
	(void)state;
	struct fault_attr a = attr("");
	assert_false(a.enabled);
	assert_int_equal(fails(&a, 1000, 64), 0);
	assert_int_equal(a.calls, 0);	/* probability 0: nothing else is looked at */
	a = attr("1,0,0,-1");
	assert_int_equal(fails(&a, 1000, 64), 0);
}

static void test_times(void **state)
{
	(void)state;
	struct fault_attr a = attr("1,100,0,3");
	assert_int_equal(fails(&a, 100, 64), 3);	/* then no more */
	assert_int_equal(a.injected, 3);
	assert_int_equal(a.calls, 100);
	a = attr("1,100,0,-1");
	assert_int_equal(fails(&a, 100, 64), 100);	/* -1: no limit */
}

static void test_space(void **state)
{
	(void)state;
	struct fault_attr a = attr("1,100,1000,-1");
	/* 1000 bytes pass first: 15 calls of 64 bytes (960), the 16th fails */
	for (int i = 0; i < 15; i++)
		assert_false(should_fail(&a, rng, 64));
	assert_true(should_fail(&a, rng, 64));
}

static void test_interval(void **state)
{
	(void)state;
	struct fault_attr a = attr("4,100,0,-1");
	for (int i = 1; i <= 12; i++)
		assert_int_equal(should_fail(&a, rng, 8), i % 4 == 0);
}

static void test_probability(void **state)
{
	(void)state;
	struct fault_attr a = attr("1,10,0,-1");
	int n = fails(&a, 100000, 8);
	assert_true(n > 9400 && n < 10600);	/* 10%, 6 sd either side */
}

/* ignore-gfp-wait (Y by default in the kernel): allocations that may
 * sleep are let through and counted, before any other attribute. */
static void test_ignore_gfp_wait(void **state)
{
	(void)state;
	struct fault_attr a = attr("1,100,0,-1");
	a.ignore_gfp_wait = true;
	assert_true(fault_gfp_spared(&a, GFP_KERNEL));
	assert_true(fault_gfp_spared(&a, GFP_NOIO));
	assert_false(fault_gfp_spared(&a, GFP_ATOMIC));
	assert_false(fault_gfp_spared(&a, GFP_NOWAIT));
	assert_int_equal(a.spared, 2);
	assert_int_equal(a.calls, 0);	/* spared ones never reach should_fail */
	a.ignore_gfp_wait = false;
	assert_false(fault_gfp_spared(&a, GFP_KERNEL));
	struct fault_attr off = attr("");
	off.ignore_gfp_wait = true;
	assert_false(fault_gfp_spared(&off, GFP_KERNEL));	/* off: nothing counted */
	assert_int_equal(off.spared, 0);
}

static void test_refused(void **state)
{
	(void)state;
	const char *bad[] = { "1,10", "1,10,0", "0,10,0,1", "1,101,0,1", "1,-1,0,1", "1,10,-5,1",
			      "1,10,0,-2", "a,b,c,d", "1,10,0,1,", "1,10,0,1x" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct fault_attr a;
		struct sim_err err;
		if (fault_attr_parse(&a, "fail_page_alloc", bad[i], &err) == 0)
			fail_msg("'%s' was taken", bad[i]);
		if (!strstr(err.msg, "fail_page_alloc="))
			fail_msg("'%s': the message does not name the parameter: %s", bad[i], err.msg);
	}
}

int main(void)
{
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_off),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_space),
		cmocka_unit_test(test_interval),
		cmocka_unit_test(test_probability),
		cmocka_unit_test(test_ignore_gfp_wait),
		cmocka_unit_test(test_refused),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	gsl_rng_free(rng);
	return rc;
}
