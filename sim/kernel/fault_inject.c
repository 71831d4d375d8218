/* fault_inject.c - should_fail() and its attributes (fault_inject.h). */
#include "fault_inject.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int fault_attr_parse(struct fault_attr *a, const char *name, const char *spec,
		     struct sim_err *err)
{
	memset(a, 0, sizeof(*a));
	a->name = name;
	a->interval = 1;
	a->times = 1;
	if (!*spec)
		return 0;
	/* setup_fault_attr(): "%lu,%lu,%lu,%d" */
	long v[4];
	const char *p = spec;
	for (int i = 0; i < 4; i++) {
		char *end;
		errno = 0;
		v[i] = strtol(p, &end, 10);
		if (end == p || errno || *end != (i < 3 ? ',' : '\0'))
			return sim_fail(err, "%s=%s: expected INTERVAL,PROBABILITY,SPACE,TIMES "
					"(as the kernel's boot parameter, e.g. %s=1,10,0,-1)", name,
					spec, name);
		p = end + 1;
	}
	if (v[0] < 1 || v[1] < 0 || v[1] > 100 || v[2] < 0 || v[3] < -1)
		return sim_fail(err, "%s=%s: interval >= 1, probability 0..100 (percent), "
				"space >= 0 (bytes), times >= -1 (-1: no limit)", name, spec);
	a->interval = (unsigned long)v[0];
	a->probability = (unsigned int)v[1];
	a->space = v[2];
	a->times = v[3];
	a->enabled = a->probability > 0;
	return 0;
}

bool fault_gfp_spared(struct fault_attr *a, gfp_t gfp)
{
	if (!a->enabled || !a->ignore_gfp_wait || !gfpflags_allow_blocking(gfp))
		return false;
	a->spared++;
	return true;
}

bool should_fail(struct fault_attr *a, gsl_rng *rng, size_t size)
{
	if (!a->enabled)	/* no need to look further at probability 0 */
		return false;
	a->calls++;
	if (a->times == 0)
		return false;
	if (a->space > (long)size) {
		a->space -= (long)size;
		return false;
	}
	if (a->interval > 1 && ++a->count % a->interval)
		return false;
	if (a->probability <= gsl_rng_uniform_int(rng, 100))
		return false;
	if (a->times != -1)
		a->times--;
	a->injected++;
	return true;
}
