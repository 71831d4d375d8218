/* test_params.c - NAME=VALUE parsing, ranges, choices, presets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "engine/params.h"
#include "engine/suggest.h"

static const struct param_def defs[] = {
	{ "count", PT_INT, "8", 1, 100, NULL, "an integer" },
	{ "ratio", PT_DOUBLE, "0.5", 0, 1, NULL, "a fraction" },
	{ "flag", PT_BOOL, "0", 0, 1, NULL, "a switch" },
	{ "mode", PT_ENUM, "process", 0, 0, "process|thread", "a choice" },
	{ NULL },
};

static void test_defaults_and_values(void **state)
{
	(void)state;
	struct param_set ps;
	struct sim_err err;
	params_init(&ps, "workload test", defs);
	assert_int_equal(ps.n, 4);
	assert_int_equal(param_int(&ps, "count"), 8);
	assert_true(param_double(&ps, "ratio") == 0.5);
	assert_false(param_bool(&ps, "flag"));
	assert_string_equal(param_str(&ps, "mode"), "process");
	assert_int_equal(params_set(&ps, "count", "42", true, &err), 0);
	assert_int_equal(params_set(&ps, "ratio", "1e-1", true, &err), 0);
	assert_int_equal(params_set(&ps, "flag", "on", true, &err), 0);
	assert_int_equal(params_set(&ps, "mode", "thread", true, &err), 0);
	assert_int_equal(param_int(&ps, "count"), 42);
	assert_true(param_double(&ps, "ratio") == 0.1);
	assert_true(param_bool(&ps, "flag"));
	assert_string_equal(param_str(&ps, "mode"), "thread");
}

static void test_bad_values(void **state)
{
	(void)state;
	struct param_set ps;
	struct sim_err err;
	params_init(&ps, "workload test", defs);
	assert_int_equal(params_set(&ps, "count", "abc", true, &err), -1);
	assert_non_null(strstr(err.msg, "not an integer"));
	assert_non_null(strstr(err.msg, "[1, 100]"));
	assert_int_equal(params_set(&ps, "count", "101", true, &err), -1);
	assert_non_null(strstr(err.msg, "out of range"));
	assert_int_equal(params_set(&ps, "count", "", true, &err), -1);
	assert_int_equal(params_set(&ps, "count", "7x", true, &err), -1);
	assert_int_equal(params_set(&ps, "ratio", "nan", true, &err), -1);
	assert_int_equal(params_set(&ps, "ratio", "2", true, &err), -1);
	assert_int_equal(params_set(&ps, "flag", "maybe", true, &err), -1);
	assert_int_equal(params_set(&ps, "mode", "fiber", true, &err), -1);
	assert_non_null(strstr(err.msg, "process|thread"));
	assert_int_equal(params_set(&ps, "colour", "red", true, &err), -1);
	assert_non_null(strstr(err.msg, "no parameter 'colour'"));
	assert_int_equal(param_int(&ps, "count"), 8);	/* unchanged by failures */
}

static void test_presets_yield_to_user(void **state)
{
	(void)state;
	struct param_set ps;
	struct sim_err err;
	params_init(&ps, "workload test", defs);
	assert_int_equal(params_set(&ps, "count", "3", true, &err), 0);
	assert_int_equal(params_preset(&ps, "count", "50", &err), 0);
	assert_int_equal(params_preset(&ps, "ratio", "0.25", &err), 0);
	assert_int_equal(param_int(&ps, "count"), 3);
	assert_true(param_double(&ps, "ratio") == 0.25);
	assert_int_equal(params_preset(&ps, "nothing", "1", &err), -1);
}

/* Did-you-mean: the nearest name within a typo's reach (one edit for short
 * names, two up to 8 characters, three beyond; a swap of neighbours is one
 * edit), nothing when no name is that near. */
static void test_suggest(void **state)
{
	(void)state;
	char b[96];
	assert_int_equal(suggest_distance("proces", "process"), 1);
	assert_int_equal(suggest_distance("slbu", "slub"), 1);	/* a swap */
	assert_int_equal(suggest_distance("", "abc"), 3);
	assert_string_equal(suggest_near("tigerto", "core2-ep tigerton x3950-m2", b, sizeof(b)),
			    " (did you mean 'tigerton'?)");
	assert_string_equal(suggest_near("slub_max_objects",
					 "kernel,slub_min_objects,slub_max_order", b, sizeof(b)),
			    " (did you mean 'slub_min_objects'?)");
	assert_string_equal(suggest_near("cray", "core2-ep tigerton", b, sizeof(b)), "");
	assert_string_equal(suggest_near("slob", "slab slub", b, sizeof(b)),
			    " (did you mean 'slab'?)");	/* a tie: the first listed */
	assert_string_equal(suggest_near("ab", "abcd", b, sizeof(b)), "");	/* 2 edits: too far */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_and_values),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_presets_yield_to_user),
		cmocka_unit_test(test_suggest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
