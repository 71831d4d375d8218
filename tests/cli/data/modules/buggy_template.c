/* buggy_template.c - a test fixture: the template with two bugs a check must
 * catch, each off unless its parameter asks for it.
 *   park_object=1  the 1000th free is kept aside, on no list and in no CPU
 *                  stack, until the 20000th gives it back: the check at the
 *                  end finds every object, a check mid-run finds one missing
 *                  (run --check-interval);
 *   crash_after=N  the Nth free dereferences NULL (SIGSEGV), as a buggy
 *                  module would: a sweep records the run with its signal. */
#include <string.h>

#define slabsim_policy template_policy
#include "../../../../policies/examples/template.c"
#undef slabsim_policy

static const struct param_def buggy_params[] = {
	{ "template_limit", PT_INT, "64", 2, 4096, NULL, "as the template's" },
	{ "template_batch", PT_INT, "16", 1, 4096, NULL, "as the template's" },
	{ "template_keep", PT_INT, "2", 0, 1000, NULL, "as the template's" },
	{ "template_max_order", PT_INT, "3", 0, 10, NULL, "as the template's" },
	{ "park_object", PT_BOOL, "0", 0, 0, NULL,
	  "keep the 1000th free off every list until the 20000th" },
	{ "crash_after", PT_INT, "0", 0, 1000000000, NULL,
	  "the free that dereferences NULL (0: none)" },
	{ NULL },
};

static struct {
	bool park;
	long crash_after, frees;
	kaddr_t parked;
	struct kmem_cache *parked_kc;
} bug;

static int buggy_create(struct kernel *k, const struct param_set *ps, void **state,
			struct sim_err *err)
{
	memset(&bug, 0, sizeof(bug));
	bug.park = param_int(ps, "park_object");
	bug.crash_after = param_int(ps, "crash_after");
	return tpl_create(k, ps, state, err);
}

/* tpl_free, but for the parked object and the crash. */
static void buggy_free(void *state, struct kmem_cache *kc, struct sim_cpu *cpu, kaddr_t obj)
{
	bug.frees++;
	if (bug.crash_after && bug.frees == bug.crash_after) {
		volatile int *volatile nowhere = NULL;
		*nowhere = 1;
	}
	if (bug.park && bug.frees == 1000) {
		bug.parked = obj;
		bug.parked_kc = kc;
		return;
	}
	if (bug.parked && bug.frees == 20000) {
		tpl_free(state, bug.parked_kc, cpu, bug.parked);
		bug.parked = 0;
	}
	tpl_free(state, kc, cpu, obj);
}

/* The template's struct, with these hooks and parameters (filled in when
 * the module is loaded, before slabsim looks at it). */
struct slab_policy slabsim_policy;

__attribute__((constructor)) static void buggy_init(void)
{
	slabsim_policy = template_policy;
	slabsim_policy.name = "buggy_template";
	slabsim_policy.description = "test fixture: the template with a parked object or a "
				     "crash, on request";
	slabsim_policy.params = buggy_params;
	slabsim_policy.create = buggy_create;
	slabsim_policy.free = buggy_free;
}
