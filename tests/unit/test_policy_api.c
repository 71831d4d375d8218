/* test_policy_api.c - what the loader checks before it runs a policy: every
 * built-in policy and workload table passes; each defect of a policy's
 * struct (version, layout, a missing hook, a bad name, kmalloc classes) and
 * of a parameter table (a duplicate, a bad name, a bad default, a bad
 * range, an enum without choices, a kernel parameter's name) is refused
 * with a message that names it. Lookup of names and paths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "policies/policy.h"
#include "workloads/workload.h"

static void test_builtins_pass(void **state)
{
	(void)state;
	struct sim_err err;
	int n = 0;
	for (int i = 0; slab_policies[i]; i++, n++) {
		if (slab_policy_validate(slab_policies[i], "built-in", &err) < 0)
			fail_msg("policy %s: %s", slab_policies[i]->name, err.msg);
		assert_ptr_equal(slab_policy_lookup(slab_policies[i]->name, &err), slab_policies[i]);
	}
	assert_true(n >= 3);
	for (int i = 0; workloads[i]; i++)
		if (params_check_defs(workloads[i]->params, workloads[i]->name, &err) < 0)
			fail_msg("workload %s: %s", workloads[i]->name, err.msg);
	assert_int_equal(params_check_defs(kernel_param_defs, "kernel", &err), 0);
}

/* A copy of SLQB's struct with one defect: refused, the message says what. */
static void expect_refused(struct slab_policy p, const char *needle)
{
	struct sim_err err = { "" };
	assert_int_equal(slab_policy_validate(&p, "module x.so", &err), -1);
	if (!strstr(err.msg, needle))
		fail_msg("expected '%s' in: %s", needle, err.msg);
}

static void test_struct_defects(void **state)
{
	(void)state;
	const struct slab_policy *good = slab_policy_find("slqb");
	assert_non_null(good);
	struct slab_policy p = *good;
	p.api_version = SLAB_POLICY_API_VERSION - 1;
	char want[96];
	snprintf(want, sizeof(want), "built for policy API version %d; this slabsim has version %d",
		 SLAB_POLICY_API_VERSION - 1, SLAB_POLICY_API_VERSION);
	expect_refused(p, want);
	p = *good;
	p.abi ^= 1;
	expect_refused(p, "built against other slabsim headers");
	p = *good;
	p.alloc = NULL;
	expect_refused(p, "the alloc hook is missing");
	p = *good;
	p.check = NULL;
	expect_refused(p, "the check hook is missing");
	p = *good;
	p.cache_create = NULL;
	expect_refused(p, "the cache_create hook is missing");
	p = *good;
	p.name = "My Policy";
	expect_refused(p, "its name must be 1 to 31 characters");
	p = *good;
	p.name = NULL;
	expect_refused(p, "its name must be");
	p = *good;
	p.description = NULL;
	expect_refused(p, "no description");
	p = *good;
	p.kmalloc_min_shift = 13;
	expect_refused(p, "kmalloc_min_shift 13 is outside [3, 12]");
	p = *good;
	p.kmalloc_odd = 4;
	expect_refused(p, "kmalloc_odd may hold only");
	p = *good;
	p.kmalloc_prefix = "";
	expect_refused(p, "kmalloc_prefix must be");
	p = *good;
	p.params = NULL;
	expect_refused(p, "no parameter table");
}

static void expect_table_refused(const struct param_def *defs, const char *needle)
{
	const struct slab_policy *good = slab_policy_find("slqb");
	struct slab_policy p = *good;
	p.params = defs;
	expect_refused(p, needle);
}

static void test_param_table_defects(void **state)
{
	(void)state;
	const struct param_def dup[] = {
		{ "a", PT_INT, "1", 0, 9, NULL, "x" }, { "a", PT_INT, "1", 0, 9, NULL, "y" }, { NULL },
	};
	expect_table_refused(dup, "parameter 'a' is declared twice");
	const struct param_def badname[] = { { "Max-Size", PT_INT, "1", 0, 9, NULL, "x" }, { NULL } };
	expect_table_refused(badname, "is named 'Max-Size'");
	const struct param_def baddef[] = { { "a", PT_INT, "ten", 0, 9, NULL, "x" }, { NULL } };
	expect_table_refused(baddef, "the default of 'a' is invalid: a=ten: not an integer");
	const struct param_def outside[] = { { "a", PT_INT, "10", 0, 9, NULL, "x" }, { NULL } };
	expect_table_refused(outside, "the default of 'a' is invalid: a=10: out of range");
	const struct param_def range[] = { { "a", PT_DOUBLE, "1", 5, 2, NULL, "x" }, { NULL } };
	expect_table_refused(range, "has min 5 above max 2");
	const struct param_def nochoice[] = { { "a", PT_ENUM, "x", 0, 0, NULL, "x" }, { NULL } };
	expect_table_refused(nochoice, "enum parameter 'a' lists no choices");
	const struct param_def nodoc[] = { { "a", PT_INT, "1", 0, 9, NULL, NULL }, { NULL } };
	expect_table_refused(nodoc, "needs a default and a doc line");
	const struct param_def badtype[] = { { "a", (enum param_type)9, "1", 0, 9, NULL, "x" },
					     { NULL } };
	expect_table_refused(badtype, "has an unknown type 9");
	const struct param_def kernels[] = { { "node_mem_mb", PT_INT, "1", 0, 9, NULL, "x" },
					     { NULL } };
	expect_table_refused(kernels, "parameter 'node_mem_mb' is the kernel's own");
	struct param_def many[PARAM_MAX + 2];
	static char names[PARAM_MAX + 1][16];
	for (int i = 0; i <= PARAM_MAX; i++) {
		snprintf(names[i], sizeof(names[i]), "p%d", i);
		many[i] = (struct param_def){ names[i], PT_INT, "1", 0, 9, NULL, "x" };
	}
	many[PARAM_MAX + 1] = (struct param_def){ NULL };
	expect_table_refused(many, "more than 64 parameters");
	const struct param_def ok[] = { { "a", PT_ENUM, "y", 0, 0, "x|y", "x" }, { NULL } };
	struct slab_policy p = *slab_policy_find("slqb");
	p.params = ok;
	struct sim_err err;
	assert_int_equal(slab_policy_validate(&p, "module x.so", &err), 0);
	/* a cost entry carries the policy's name: a copy that kept another's is refused */
	const struct cost_def theirs[] = { { "remote_batch.remote_push", 6, "est: x" }, { NULL } };
	p.costs = theirs;
	assert_int_equal(slab_policy_validate(&p, "module x.so", &err), -1);
	assert_non_null(strstr(err.msg, "cost entry 'remote_batch.remote_push' must start with 'slqb.'"));
	const struct cost_def prefix[] = { { "slqbx.push", 6, "est: x" }, { NULL } };
	p.costs = prefix;
	assert_int_equal(slab_policy_validate(&p, "module x.so", &err), -1);
	const struct cost_def mine[] = { { "slqb.push", 6, "est: x" }, { NULL } };
	p.costs = mine;
	assert_int_equal(slab_policy_validate(&p, "module x.so", &err), 0);
}

static void test_lookup(void **state)
{
	(void)state;
	struct sim_err err;
	setenv("SLABSIM_POLICY_PATH", "/nonexistent", 1);
	assert_null(slab_policy_lookup("slob", &err));
	assert_non_null(strstr(err.msg, "unknown policy 'slob' (did you mean 'slab'?); valid policies: slab slub slqb"));
	assert_null(slab_policy_lookup("./slob.so", &err));
	assert_non_null(strstr(err.msg, "policy module './slob.so' not found"));
	assert_null(slab_policy_lookup("/etc/passwd", &err));
	assert_non_null(strstr(err.msg, "cannot be loaded"));
	assert_null(slab_policy_lookup("/tmp", &err));
	assert_non_null(strstr(err.msg, "not found"));
	unsetenv("SLABSIM_POLICY_PATH");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtins_pass),
		cmocka_unit_test(test_struct_defects),
		cmocka_unit_test(test_param_table_defects),
		cmocka_unit_test(test_lookup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
